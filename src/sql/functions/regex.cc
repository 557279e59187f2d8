#include <re2/re2.h>

#include <cctype>

#include "floe/util/strings.h"
#include "sql/functions/regex_internal.h"

namespace floe::sql::internal {

namespace {

Status unsupported(std::string_view pattern, std::string_view what) {
  return invalid_argument("invalid regular expression '{}': {} not supported", pattern, what);
}

// Java's syntax to RE2's: (?<name> becomes (?P<name>; constructs RE2 cannot run are an error.
Result<std::string> translate(std::string_view p) {
  std::string out;
  out.reserve(p.size() + 8);
  int class_depth = 0;  // inside [...] (Java allows nested classes)
  for (size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\') {
      if (i + 1 >= p.size())
        return invalid_argument(
            "invalid regular expression '{}': it ends "
            "with an unescaped '\\'",
            p);
      char n = p[i + 1];
      if (n == 'Q') {  // \Q...\E quotes everything up to \E
        size_t end = p.find("\\E", i + 2);
        std::string_view quoted =
            p.substr(i + 2, end == std::string_view::npos ? std::string_view::npos : end - i - 2);
        out += RE2::QuoteMeta(re2::StringPiece(quoted.data(), quoted.size()));
        i = end == std::string_view::npos ? p.size() : end + 1;
        continue;
      }
      if (class_depth == 0 && n >= '1' && n <= '9') {
        return unsupported(p, fmt::format("backreferences (\\{}) are", n));
      }
      if (class_depth == 0 && n == 'k' && i + 2 < p.size() && p[i + 2] == '<') {
        return unsupported(p, "named backreferences (\\k<name>) are");
      }
      out += c;
      out += n;
      ++i;
      continue;
    }
    if (c == '[') {
      ++class_depth;
      out += c;
      // A ']' first in the class (or after '^') is a literal.
      if (i + 1 < p.size() && p[i + 1] == '^') out += p[++i];
      if (i + 1 < p.size() && p[i + 1] == ']') out += p[++i];
      continue;
    }
    if (c == ']' && class_depth > 0) {
      --class_depth;
      out += c;
      continue;
    }
    if (class_depth == 0 && c == '(' && i + 2 < p.size() && p[i + 1] == '?') {
      std::string_view rest = p.substr(i + 2);
      if (rest.starts_with("=") || rest.starts_with("!")) {
        return unsupported(p, "lookahead ((?=...), (?!...)) is");
      }
      if (rest.starts_with("<=") || rest.starts_with("<!")) {
        return unsupported(p, "lookbehind ((?<=...), (?<!...)) is");
      }
      if (rest.starts_with(">")) return unsupported(p, "atomic groups ((?>...)) are");
      if (rest.starts_with("<")) {  // (?<name>...)
        out += "(?P<";
        i += 2;
        continue;
      }
    }
    if (class_depth == 0 && c == '+' && i > 0 && out.size() > 0) {
      char prev = p[i - 1];
      bool escaped = i >= 2 && p[i - 2] == '\\';
      if (!escaped && (prev == '*' || prev == '+' || prev == '?' || prev == '}')) {
        return unsupported(p, fmt::format("possessive quantifiers ({}+) are", prev));
      }
    }
    out += c;
  }
  return out;
}

}  // namespace

Regex::~Regex() = default;

Result<std::shared_ptr<const Regex>> Regex::compile(std::string_view pattern) {
  std::string translated = FLOE_TRY(translate(pattern));
  RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(int64_t{64} << 20);
  auto r = std::shared_ptr<Regex>(new Regex());
  r->pattern_.assign(pattern);
  r->re_ = std::make_unique<RE2>(re2::StringPiece(translated.data(), translated.size()), options);
  if (!r->re_->ok()) {
    return invalid_argument("invalid regular expression '{}': {}", pattern, r->re_->error());
  }
  return std::shared_ptr<const Regex>(std::move(r));
}

int Regex::groups() const { return re_->NumberOfCapturingGroups(); }

bool Regex::contains(std::string_view text) const {
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

bool Regex::find(std::string_view text, size_t from, std::string_view* out, int n) const {
  re2::StringPiece g[32];
  std::vector<re2::StringPiece> big;
  re2::StringPiece* groups = g;
  if (n > 32) {
    big.resize(static_cast<size_t>(n));
    groups = big.data();
  }
  if (!re_->Match(re2::StringPiece(text.data(), text.size()), from, text.size(), RE2::UNANCHORED,
                  groups, n)) {
    return false;
  }
  for (int i = 0; i < n; ++i) out[i] = std::string_view(groups[i].data(), groups[i].size());
  return true;
}

int Regex::group_named(std::string_view name) const {
  const auto& names = re_->NamedCapturingGroups();
  auto it = names.find(std::string(name));
  return it == names.end() ? -1 : it->second;
}

Result<Replacement> Replacement::parse(std::string_view text, const Regex& regex) {
  Replacement r;
  Piece piece;
  const int groups = regex.groups();
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\') {
      if (i + 1 >= text.size()) {
        return invalid_argument("regexp_replace: the replacement '{}' ends with a lone '\\'", text);
      }
      piece.literal += text[++i];
      continue;
    }
    if (c != '$') {
      piece.literal += c;
      continue;
    }
    if (i + 1 >= text.size()) {
      return invalid_argument("regexp_replace: the replacement '{}' ends with a lone '$'", text);
    }
    int group = -1;
    if (text[i + 1] == '{') {
      size_t close = text.find('}', i + 2);
      if (close == std::string_view::npos) {
        return invalid_argument("regexp_replace: '${{' without '}}' in the replacement '{}'", text);
      }
      std::string_view name = text.substr(i + 2, close - i - 2);
      group = regex.group_named(name);
      if (group < 0) {
        return invalid_argument("regexp_replace: the pattern '{}' has no group named '{}'",
                                regex.pattern(), name);
      }
      i = close;
    } else if (std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
      // Java takes the longest run of digits that still names an existing group.
      group = text[++i] - '0';
      if (group > groups) {
        return invalid_argument("regexp_replace: the pattern '{}' has no group {}", regex.pattern(),
                                group);
      }
      while (i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
        int longer = group * 10 + (text[i + 1] - '0');
        if (longer > groups) break;
        group = longer;
        ++i;
      }
    } else {
      return invalid_argument(
          "regexp_replace: '$' must be followed by a group number or {{name}} in the replacement "
          "'{}' (write \\$ for a '$')",
          text);
    }
    piece.group = group;
    r.max_group_ = std::max(r.max_group_, group);
    r.pieces_.push_back(std::move(piece));
    piece = Piece{};
  }
  if (!piece.literal.empty()) r.pieces_.push_back(std::move(piece));
  return r;
}

void Replacement::append_to(std::string* out, const std::string_view* groups) const {
  for (const Piece& p : pieces_) {
    out->append(p.literal);
    if (p.group >= 0) out->append(groups[p.group]);
  }
}

void replace_all(const Regex& regex, std::string_view text, const Replacement& replacement,
                 std::string* out) {
  size_t last = 0;
  regex.for_each_match(text, replacement.groups_needed(), [&](const std::string_view* g) {
    size_t start = static_cast<size_t>(g[0].data() - text.data());
    out->append(text.substr(last, start - last));
    replacement.append_to(out, g);
    last = start + g[0].size();
    return true;
  });
  out->append(text.substr(last));
}

}  // namespace floe::sql::internal
