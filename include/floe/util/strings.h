// Small ASCII string helpers shared across layers (type names, file names, SQL keywords).
#pragma once

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace floe {

inline std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

inline std::string to_upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

inline bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

inline bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The parts of `s` between `sep`s, each trimmed ("db . t" -> {"db", "t"}); empty parts are kept
// unless `skip_empty`.
inline std::vector<std::string> split(std::string_view s, char sep, bool skip_empty = false) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t at = s.find(sep, start);
    std::string_view part =
        trim(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (!part.empty() || !skip_empty) out.emplace_back(part);
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

}  // namespace floe
