// UTF-8 decoding, encoding and the code point increment of util/utf8.h.
#include "floe/util/utf8.h"

namespace floe {

std::vector<uint32_t> utf8_decode(std::string_view s, size_t max_points, size_t* consumed) {
  std::vector<uint32_t> cps;
  size_t i = 0;
  while (i < s.size() && cps.size() < max_points) {
    auto c = static_cast<unsigned char>(s[i]);
    size_t n = utf8_len(c);
    if (i + n > s.size()) n = 1;
    uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1f) : n == 3 ? (c & 0x0f) : (c & 0x07);
    for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
    cps.push_back(cp);
    i += n;
  }
  *consumed = i;
  return cps;
}

void utf8_append(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out->push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

std::optional<std::string> utf8_increment(std::string_view s) {
  size_t used = 0;
  std::vector<uint32_t> cps = utf8_decode(s, s.size(), &used);
  for (size_t k = cps.size(); k-- > 0;) {
    uint32_t cp = cps[k];
    if (cp >= 0x10FFFF) continue;  // overflow: drop it and increment the previous one
    uint32_t next = cp == 0xD7FF ? 0xE000 : cp + 1;
    std::string out;
    for (size_t j = 0; j < k; ++j) utf8_append(cps[j], &out);
    utf8_append(next, &out);
    return out;
  }
  return std::nullopt;
}

}  // namespace floe
