// Bytes as text: lowercase hex (Iceberg spec, JSON single-value serialization of binary and
// fixed) and standard padded Base64 (partition paths of binary values).
#pragma once

#include <string>
#include <string_view>

namespace floe {

// The value of one hex digit (either case), or -1.
inline int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string hex_encode(std::string_view bytes);  // lowercase
// Hex text (either case, even length) to bytes; false if it is not hex.
bool hex_decode(std::string_view text, std::string* out);
std::string base64_encode(std::string_view bytes);  // standard alphabet, padded
// Standard padded Base64 to bytes; false unless `text` is exactly what base64_encode writes
// (length a multiple of 4, the alphabet, padding only at the end, unused bits zero).
bool base64_decode(std::string_view text, std::string* out);

}  // namespace floe
