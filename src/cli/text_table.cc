#include <algorithm>

#include "cli/text_table_internal.h"
#include "floe/util/utf8.h"

namespace floe::cli {

namespace {
size_t display_width(const std::string& s) { return static_cast<size_t>(utf8_count(s)); }
}  // namespace

void TextTable::print(std::ostream& out, bool header, int indent) const {
  std::vector<size_t> widths(header_.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], display_width(row[i]));
    }
  };
  if (header) measure(header_);
  for (const auto& r : rows_) measure(r);
  auto emit = [&](const std::vector<std::string>& row) {
    std::string line(indent, ' ');
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - display_width(row[i]) + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  };
  if (header) emit(header_);
  for (const auto& r : rows_) emit(r);
}

}  // namespace floe::cli
