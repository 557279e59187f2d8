// A guard for JSON read from files: the nesting depth of JSON text, found without parsing it.
// JSON libraries parse deep nesting fine but copy, compare and print parsed values
// recursively, so a value nested tens of thousands of levels deep (a few hundred KB of
// brackets) overflows the stack long after it was parsed. Readers of JSON from files check the
// text first and refuse anything deeper than kMaxJsonDepth.
#pragma once

#include <cstddef>
#include <string_view>

#include "floe/util/result.h"

namespace floe {

// Deeper than any JSON that Iceberg or Avro writers produce (a schema nested 100 types deep is
// about 300 levels of JSON), shallow enough to copy and print recursively.
inline constexpr size_t kMaxJsonDepth = 1000;

// The deepest nesting of arrays and objects in `text`: brackets inside strings (escapes
// included) do not count. The text is not otherwise validated; unbalanced brackets count as
// they come.
size_t json_depth(std::string_view text);

// OK when no array or object in `text` nests deeper than `max_depth`; otherwise an invalid-data
// error: "<what> nests JSON deeper than 1000 levels (at byte N)".
Status check_json_depth(std::string_view text, std::string_view what,
                        size_t max_depth = kMaxJsonDepth);

}  // namespace floe
