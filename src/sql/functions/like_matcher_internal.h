// LIKE / ILIKE patterns compiled once into tokens ('%', '_', literal bytes) matched without
// regex, and RLIKE patterns compiled into an RE2 regex with Java's syntax (searched anywhere, as
// Java's find()).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sql/exec/bound_expr_internal.h"
#include "sql/functions/regex_internal.h"

namespace floe::sql {

class PatternMatcher {
 public:
  // Whether `s` matches. `scratch` is reused for ILIKE's lower-casing.
  bool matches(std::string_view s, std::string* scratch) const;

 private:
  friend Result<std::shared_ptr<const PatternMatcher>> compile_pattern(std::string_view pattern,
                                                                       LikeKind kind, char escape);
  enum class Shape : uint8_t { kExact, kPrefix, kSuffix, kContains, kGeneral, kRegex };
  static constexpr int16_t kAnyOne = -1;
  static constexpr int16_t kAnyMany = -2;

  bool match_tokens(std::string_view s) const;

  LikeKind kind_ = LikeKind::kLike;
  Shape shape_ = Shape::kGeneral;
  std::string literal_;          // exact/prefix/suffix/contains text
  std::vector<int16_t> tokens_;  // byte values, kAnyOne, kAnyMany
  std::shared_ptr<const internal::Regex> regex_;
};

Result<std::shared_ptr<const PatternMatcher>> compile_pattern(std::string_view pattern,
                                                              LikeKind kind, char escape);

}  // namespace floe::sql
