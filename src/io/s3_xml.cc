// S3's XML answers (src/io/s3_xml_internal.h).
#include <cstdint>
#include <cstdlib>

#include "floe/util/utf8.h"
#include "io/s3_xml_internal.h"

namespace floe::internal {

std::vector<std::string_view> xml_elements(std::string_view xml, std::string_view name) {
  std::vector<std::string_view> out;
  const std::string open = "<" + std::string(name);
  const std::string close = "</" + std::string(name) + ">";
  size_t at = 0;
  while (true) {
    size_t start = xml.find(open, at);
    if (start == std::string_view::npos) break;
    const size_t after = start + open.size();
    // <Key> or <Key xmlns=...>, not <KeyMarker>.
    if (after >= xml.size() || (xml[after] != '>' && xml[after] != ' ' && xml[after] != '/')) {
      at = after;
      continue;
    }
    const size_t gt = xml.find('>', after);
    if (gt == std::string_view::npos) break;
    if (xml[gt - 1] == '/') {  // <Key/>
      out.emplace_back();
      at = gt + 1;
      continue;
    }
    const size_t end = xml.find(close, gt + 1);
    if (end == std::string_view::npos) break;
    out.push_back(xml.substr(gt + 1, end - gt - 1));
    at = end + close.size();
  }
  return out;
}

std::string xml_text(std::string_view xml, std::string_view name) {
  auto all = xml_elements(xml, name);
  return all.empty() ? std::string() : xml_decode(all.front());
}

std::string xml_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') {
      out.push_back(text[i]);
      continue;
    }
    const size_t semi = text.find(';', i);
    if (semi == std::string_view::npos || semi - i > 12) {
      out.push_back('&');
      continue;
    }
    std::string_view entity = text.substr(i + 1, semi - i - 1);
    if (entity == "amp") {
      out.push_back('&');
    } else if (entity == "lt") {
      out.push_back('<');
    } else if (entity == "gt") {
      out.push_back('>');
    } else if (entity == "quot") {
      out.push_back('"');
    } else if (entity == "apos") {
      out.push_back('\'');
    } else if (entity.size() > 1 && entity[0] == '#') {
      const bool hex = entity[1] == 'x' || entity[1] == 'X';
      const std::string digits(entity.substr(hex ? 2 : 1));
      char* end = nullptr;
      const unsigned long cp = std::strtoul(digits.c_str(), &end, hex ? 16 : 10);
      if (digits.empty() || *end != '\0') {
        out.push_back('&');
        continue;
      }
      if (cp >= 0x110000) {
        out.push_back('&');
        continue;
      }
      utf8_append(static_cast<uint32_t>(cp), &out);
    } else {
      out.push_back('&');
      continue;
    }
    i = semi;
  }
  return out;
}

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          out += "&#" + std::to_string(static_cast<int>(c)) + ";";
        } else {
          out.push_back(c);
        }
    }
  }
  return out;
}

}  // namespace floe::internal
