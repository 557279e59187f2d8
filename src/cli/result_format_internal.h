// Printing query results: an aligned table like Spark's Dataset.show(), CSV, or JSON lines.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "floe/columnar/column_vector.h"

namespace floe::cli {

// A CSV field, quoted (with "" escapes) when it holds a comma, quote or line break.
std::string csv_escape(const std::string& v);

// One value as Spark's show() renders it: NULL, 2024-06-15 10:00:00, 1.0E10, [a, b],
// {k -> v}, {a, b} for structs, [0A FF] for binary.
std::string spark_cell(const ColumnVector& col, int64_t row);

// Collects rows and prints them in one of the output formats.
class ResultPrinter {
 public:
  enum class Format { kTable, kCsv, kJson };
  ResultPrinter(std::ostream& out, Format format) : out_(out), format_(format) {}

  // Table format only: print at most this many rows, then "only showing top N rows" as Spark's
  // show() does (-1: all), and pass every cell through `cell_text` (e.g. to shorten paths).
  int64_t max_rows = -1;
  std::function<std::string(std::string)> cell_text;

  void begin(const std::vector<NestedField>& fields);
  void add(const ColumnBatch& batch);
  // Table format: prints the collected table. Returns rows printed.
  int64_t end();

 private:
  std::ostream& out_;
  Format format_;
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
  int64_t count_ = 0;
  std::string line_;
};

}  // namespace floe::cli
