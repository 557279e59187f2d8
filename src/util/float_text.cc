// Java's Float.toString / Double.toString over std::to_chars' shortest round-trip digits.
#include "floe/util/float_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>

namespace floe {

namespace {

// Shortest round-trip digits of a double or float, and the decimal exponent of the first one.
template <typename F>
void shortest_digits(F v, std::string* digits, int* exponent) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  std::string_view s(buf, res.ptr - buf);
  size_t e = s.find('e');
  digits->clear();
  for (char c : s.substr(0, e)) {
    if (c >= '0' && c <= '9') digits->push_back(c);
  }
  *exponent = std::stoi(std::string(s.substr(e + 1)));
  while (digits->size() > 1 && digits->back() == '0') digits->pop_back();
}

template <typename F>
std::string java_float_text(F v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  std::string out = std::signbit(v) ? "-" : "";
  std::string d;
  int e = 0;
  shortest_digits(std::fabs(v), &d, &e);
  if (e >= -3 && e < 7) {
    if (e >= 0) {
      std::string int_part = d.substr(0, std::min<size_t>(d.size(), e + 1));
      while (static_cast<int>(int_part.size()) < e + 1) int_part.push_back('0');
      std::string frac = d.size() > static_cast<size_t>(e + 1) ? d.substr(e + 1) : "0";
      return out + int_part + "." + frac;
    }
    return out + "0." + std::string(-e - 1, '0') + d;
  }
  out += d.substr(0, 1);
  out += ".";
  out += d.size() > 1 ? d.substr(1) : "0";
  return out + "E" + std::to_string(e);
}

}  // namespace

std::string java_double_to_string(double v) { return java_float_text(v); }
std::string java_float_to_string(float v) { return java_float_text(v); }

}  // namespace floe
