#include "floe/util/json_depth.h"

#include <cstring>

namespace floe {

namespace {

// Offset of the first byte at which the nesting passes `limit` (text.size() if it never does);
// *deepest is the deepest nesting seen up to there. Strings are skipped with memchr: most of the
// bytes of metadata JSON are in strings.
size_t scan(std::string_view text, size_t limit, size_t* deepest) {
  size_t depth = 0;
  size_t max = 0;
  const char* begin = text.data();
  const char* end = begin + text.size();
  const char* p = begin;
  while (p < end) {
    char c = *p;
    if (c == '"') {
      // The closing quote is the next one not escaped by an odd run of backslashes.
      const char* q = p + 1;
      while (true) {
        q = static_cast<const char*>(std::memchr(q, '"', static_cast<size_t>(end - q)));
        if (q == nullptr) {
          *deepest = max;
          return text.size();  // unterminated: the parser reports it
        }
        const char* b = q;
        while (b > p + 1 && b[-1] == '\\') --b;
        if (((q - b) & 1) == 0) break;
        ++q;
      }
      p = q + 1;
      continue;
    }
    if (c == '[' || c == '{') {
      if (++depth > max) {
        max = depth;
        if (max > limit) {
          *deepest = max;
          return static_cast<size_t>(p - begin);
        }
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
    ++p;
  }
  *deepest = max;
  return text.size();
}

}  // namespace

size_t json_depth(std::string_view text) {
  size_t deepest = 0;
  scan(text, static_cast<size_t>(-1), &deepest);
  return deepest;
}

Status check_json_depth(std::string_view text, std::string_view what, size_t max_depth) {
  size_t deepest = 0;
  size_t at = scan(text, max_depth, &deepest);
  if (at < text.size()) {
    return invalid_data("{} nests JSON deeper than {} levels (at byte {})", what, max_depth, at);
  }
  return Status::OK();
}

}  // namespace floe
