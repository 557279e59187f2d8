// Aligned text tables for terminal output.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace floe::cli {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // Columns padded to their widest cell (by code points), separated by two spaces.
  void print(std::ostream& out, bool header = true, int indent = 0) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace floe::cli
