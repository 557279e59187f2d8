#include "floe/io/file_io.h"

namespace floe {

std::string local_path_of(std::string_view uri) {
  constexpr std::string_view kAuthority = "file://";
  constexpr std::string_view kScheme = "file:";
  // "file:///tmp/x" keeps its leading '/', "file://wh/t" leaves the relative "wh/t".
  if (uri.starts_with(kAuthority)) return std::string(uri.substr(kAuthority.size()));
  if (uri.starts_with(kScheme)) return std::string(uri.substr(kScheme.size()));
  return std::string(uri);
}

namespace {

std::string join_plain(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  if (b.empty()) return std::string(a);
  while (!a.empty() && a.back() == '/') a.remove_suffix(1);
  while (!b.empty() && b.front() == '/') b.remove_prefix(1);
  std::string out;
  out.reserve(a.size() + 1 + b.size());
  out.append(a);
  out.push_back('/');
  out.append(b);
  return out;
}

}  // namespace

std::string join_path(std::string_view a, std::string_view b) {
  // The slashes of "scheme://" are not separators: "file:///" + "x" is "file:///x" and
  // "s3://" + "bucket" is "s3://bucket".
  auto scheme_end = a.find("://");
  if (scheme_end == std::string_view::npos || b.empty()) return join_plain(a, b);
  scheme_end += 3;
  std::string out(a.substr(0, scheme_end));
  out += join_plain(a.substr(scheme_end), b);
  return out;
}

}  // namespace floe
