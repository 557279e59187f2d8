// Iceberg's column metrics settings (Iceberg spec, Table Properties: write.metadata.metrics.*):
// the metrics mode of each column (none, counts, truncate(N), full), read from table
// properties as Java's MetricsConfig does, and the truncation of lower/upper bounds.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "floe/spec/schema.h"
#include "floe/util/result.h"

namespace floe {

// What a written file reports of a column: nothing, its value/null/NaN counts, or the counts
// and bounds (truncated to `length` code points for strings and bytes for binary, or full).
struct MetricsMode {
  enum Kind { kNone, kCounts, kTruncate, kFull };
  Kind kind = kTruncate;
  int length = 16;                                          // kTruncate
  static Result<MetricsMode> parse(std::string_view text);  // none|counts|truncate(N)|full
  std::string to_string() const;
};

// The metrics mode of every column of a file.
struct MetricsConfig {
  MetricsMode default_mode;                     // write.metadata.metrics.default
  std::map<int32_t, MetricsMode> column_modes;  // by field id

  const MetricsMode& mode(int32_t field_id) const {
    auto it = column_modes.find(field_id);
    return it != column_modes.end() ? it->second : default_mode;
  }

  // From the write.metadata.metrics.* table properties of a table of `schema` (Java's
  // MetricsConfig.forTable, without the sort order). Bad modes and a non-positive
  // max-inferred-column-defaults are errors.
  static Result<MetricsConfig> from_properties(const std::map<std::string, std::string>& props,
                                               const Schema& schema);
};

// Iceberg truncation of bounds (Iceberg spec, Appendix B / Truncation): the lower bound is a
// prefix of n code points (bytes for binary); the upper bound is that prefix with its last unit
// incremented (nullopt when every unit overflows), or the value itself when it is not longer.
std::string truncate_lower_string(std::string_view utf8, int n);
std::optional<std::string> truncate_upper_string(std::string_view utf8, int n);
std::string truncate_lower_binary(std::string_view bytes, int n);
std::optional<std::string> truncate_upper_binary(std::string_view bytes, int n);

}  // namespace floe
