#include "sql/functions/function_internal.h"
#include "sql/functions/like_matcher_internal.h"

namespace floe::sql {

namespace {

void ascii_lower(std::string_view s, std::string* out) {
  out->assign(s.data(), s.size());
  for (char& c : *out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
}

}  // namespace

Result<std::shared_ptr<const PatternMatcher>> compile_pattern(std::string_view pattern,
                                                              LikeKind kind, char escape) {
  auto m = std::make_shared<PatternMatcher>();
  m->kind_ = kind;
  if (kind == LikeKind::kRLike) {
    m->regex_ = FLOE_TRY(internal::Regex::compile(pattern));
    m->shape_ = PatternMatcher::Shape::kRegex;
    return std::shared_ptr<const PatternMatcher>(m);
  }
  std::string text;
  if (kind == LikeKind::kILike) {
    ascii_lower(pattern, &text);
  } else {
    text.assign(pattern);
  }
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == escape) {
      if (i + 1 >= text.size()) {
        return invalid_argument("LIKE pattern '{}' ends with the escape character", pattern);
      }
      m->tokens_.push_back(static_cast<unsigned char>(text[++i]));
    } else if (c == '%') {
      if (m->tokens_.empty() || m->tokens_.back() != PatternMatcher::kAnyMany) {
        m->tokens_.push_back(PatternMatcher::kAnyMany);
      }
    } else if (c == '_') {
      m->tokens_.push_back(PatternMatcher::kAnyOne);
    } else {
      m->tokens_.push_back(static_cast<unsigned char>(c));
    }
  }
  // Shapes that need no backtracking: 'abc', 'abc%', '%abc', '%abc%'.
  const auto& t = m->tokens_;
  size_t begin = 0, end = t.size();
  bool lead = !t.empty() && t.front() == PatternMatcher::kAnyMany;
  bool tail = t.size() > (lead ? 1u : 0u) && t.back() == PatternMatcher::kAnyMany;
  if (lead) ++begin;
  if (tail) --end;
  bool plain = true;
  for (size_t i = begin; i < end; ++i) {
    if (t[i] < 0) plain = false;
  }
  if (plain) {
    for (size_t i = begin; i < end; ++i) m->literal_.push_back(static_cast<char>(t[i]));
    using S = PatternMatcher::Shape;
    m->shape_ = lead && tail ? S::kContains : lead ? S::kSuffix : tail ? S::kPrefix : S::kExact;
    if (t.size() == 1 && lead) m->shape_ = S::kPrefix;  // '%' alone
  }
  return std::shared_ptr<const PatternMatcher>(m);
}

bool PatternMatcher::match_tokens(std::string_view s) const {
  const size_t n = s.size(), p_end = tokens_.size();
  size_t si = 0, pi = 0, star_p = std::string::npos, star_s = 0;
  while (si < n) {
    if (pi < p_end && tokens_[pi] == kAnyOne) {
      si += utf8_len(static_cast<unsigned char>(s[si]));
      ++pi;
    } else if (pi < p_end && tokens_[pi] >= 0 && static_cast<unsigned char>(s[si]) == tokens_[pi]) {
      ++si;
      ++pi;
    } else if (pi < p_end && tokens_[pi] == kAnyMany) {
      star_p = pi++;
      star_s = si;
    } else if (star_p != std::string::npos) {
      pi = star_p + 1;
      star_s += utf8_len(static_cast<unsigned char>(s[star_s]));
      si = star_s;
    } else {
      return false;
    }
  }
  while (pi < p_end && tokens_[pi] == kAnyMany) ++pi;
  return pi == p_end && si <= n;
}

bool PatternMatcher::matches(std::string_view s, std::string* scratch) const {
  if (shape_ == Shape::kRegex) return regex_->contains(s);
  if (kind_ == LikeKind::kILike) {
    ascii_lower(s, scratch);
    s = *scratch;
  }
  switch (shape_) {
    case Shape::kExact:
      return s == literal_;
    case Shape::kPrefix:
      return s.substr(0, literal_.size()) == literal_;
    case Shape::kSuffix:
      return s.size() >= literal_.size() && s.substr(s.size() - literal_.size()) == literal_;
    case Shape::kContains:
      return s.find(literal_) != std::string_view::npos;
    default:
      return match_tokens(s);
  }
}

}  // namespace floe::sql
