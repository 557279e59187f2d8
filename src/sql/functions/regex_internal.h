// Regular expressions with Spark's (Java's java.util.regex) syntax, run by RE2: matching takes
// time linear in the input and never recurses, so a 100 KB value cannot exhaust the stack.
// Patterns are translated where the two syntaxes differ ((?<name>...) named groups); the few
// Java constructs RE2 cannot run (backreferences, lookaround, atomic groups, possessive
// quantifiers) are an error naming the pattern. Replacements use Java's syntax ($1, ${name},
// \$) and its find-next rules for empty matches.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/util/result.h"

namespace re2 {
class RE2;
}

namespace floe::sql::internal {

class Regex {
 public:
  // Compiles a pattern written in Java's syntax.
  static Result<std::shared_ptr<const Regex>> compile(std::string_view pattern);
  ~Regex();

  const std::string& pattern() const { return pattern_; }
  int groups() const;  // capturing groups, not counting group 0

  // Whether the pattern matches anywhere in `text` (Java's Matcher.find()).
  bool contains(std::string_view text) const;
  // The first match that starts at or after `from`: fills `out[0..n)` with group 0 (the whole
  // match) and the first n - 1 groups (a group that did not take part has a null data()).
  bool find(std::string_view text, size_t from, std::string_view* out, int n) const;
  // Java's Matcher.find() loop: each match in order; after an empty match the search goes on
  // one character further. `fn(groups)` gets group 0..n-1 and returns false to stop.
  template <typename Fn>
  void for_each_match(std::string_view text, int n, Fn&& fn) const;

  // Group number of a named group, or -1.
  int group_named(std::string_view name) const;

 private:
  Regex() = default;
  std::string pattern_;
  std::unique_ptr<re2::RE2> re_;
};

// A replacement string in Java's syntax, parsed once against its regex: $n and ${name} insert
// a group, \c inserts c.
class Replacement {
 public:
  static Result<Replacement> parse(std::string_view text, const Regex& regex);
  int groups_needed() const { return max_group_ + 1; }
  void append_to(std::string* out, const std::string_view* groups) const;

 private:
  struct Piece {
    std::string literal;
    int group = -1;  // >= 0: insert this group after `literal`
  };
  std::vector<Piece> pieces_;
  int max_group_ = 0;
};

// Java's Matcher.replaceAll: every match of `regex` in `text` replaced.
void replace_all(const Regex& regex, std::string_view text, const Replacement& replacement,
                 std::string* out);

// UTF-8 sequence length from its first byte (1 for a stray byte).
inline size_t utf8_step(unsigned char c) { return c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4; }

template <typename Fn>
void Regex::for_each_match(std::string_view text, int n, Fn&& fn) const {
  std::string_view g[32];
  std::vector<std::string_view> big;
  std::string_view* groups = g;
  if (n > 32) {
    big.resize(static_cast<size_t>(n));
    groups = big.data();
  }
  size_t pos = 0;
  while (pos <= text.size() && find(text, pos, groups, n)) {
    if (!fn(static_cast<const std::string_view*>(groups))) return;
    size_t start = static_cast<size_t>(groups[0].data() - text.data());
    size_t end = start + groups[0].size();
    if (end == start) {
      if (end >= text.size()) return;
      end += utf8_step(static_cast<unsigned char>(text[end]));
    }
    pos = end;
  }
}

}  // namespace floe::sql::internal
