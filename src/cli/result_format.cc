#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/result_format_internal.h"
#include "floe/util/date_time_text.h"

namespace floe::cli {

namespace {

size_t display_width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Java's Double.toString: plain notation for 1e-3 <= |x| < 1e7, else d.dddE±n; always a
// fractional digit; shortest digits that round-trip.
std::string java_double(double v, bool is_float) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  // Shortest round-trip scientific form: d.ddddde±XX.
  std::string sci = is_float ? fmt::format("{}", static_cast<float>(v)) : fmt::format("{}", v);
  // Normalise fmt's shortest output into mantissa digits and exponent.
  bool neg = sci[0] == '-';
  if (neg) sci.erase(0, 1);
  int exp10 = 0;
  std::string mant;
  size_t e = sci.find_first_of("eE");
  std::string base = e == std::string::npos ? sci : sci.substr(0, e);
  if (e != std::string::npos) exp10 = std::stoi(sci.substr(e + 1));
  size_t dot = base.find('.');
  std::string intpart = dot == std::string::npos ? base : base.substr(0, dot);
  std::string frac = dot == std::string::npos ? "" : base.substr(dot + 1);
  mant = intpart + frac;
  int point = static_cast<int>(intpart.size()) + exp10;  // decimal point position in mant
  size_t lead = mant.find_first_not_of('0');
  if (lead == std::string::npos) return neg ? "-0.0" : "0.0";
  mant.erase(0, lead);
  point -= static_cast<int>(lead);
  while (mant.size() > 1 && mant.back() == '0') mant.pop_back();
  double mag = std::fabs(v);
  std::string out;
  if (mag >= 1e-3 && mag < 1e7) {
    if (point <= 0) {
      out = "0." + std::string(-point, '0') + mant;
    } else if (point >= static_cast<int>(mant.size())) {
      out = mant + std::string(point - mant.size(), '0') + ".0";
    } else {
      out = mant.substr(0, point) + "." + mant.substr(point);
    }
  } else {
    out = mant.substr(0, 1) + "." + (mant.size() > 1 ? mant.substr(1) : "0") + "E" +
          std::to_string(point - 1);
  }
  return neg ? "-" + out : out;
}

std::string spark_timestamp(int64_t micros) {
  std::string iso = format_timestamp(micros, false);  // 2017-11-16T22:31:08.123456
  iso[10] = ' ';
  size_t dot = iso.find('.');
  if (dot != std::string::npos) {
    while (iso.back() == '0') iso.pop_back();
    if (iso.back() == '.') iso.pop_back();
  }
  return iso;
}

void render(const ColumnVector& col, int64_t i, std::string* out) {
  if (col.is_null(i)) {
    *out += "NULL";
    return;
  }
  const Type& t = *col.type();
  switch (t.id()) {
    case TypeId::kBoolean:
      *out += col.raw<uint8_t>()[i] ? "true" : "false";
      return;
    case TypeId::kInt:
      *out += std::to_string(col.raw<int32_t>()[i]);
      return;
    case TypeId::kLong:
      *out += std::to_string(col.raw<int64_t>()[i]);
      return;
    case TypeId::kFloat:
      *out += java_double(col.raw<float>()[i], true);
      return;
    case TypeId::kDouble:
      *out += java_double(col.raw<double>()[i], false);
      return;
    case TypeId::kDate:
      *out += format_date(col.raw<int32_t>()[i]);
      return;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      *out += spark_timestamp(col.raw<int64_t>()[i]);
      return;
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      std::string s = format_timestamp_ns(col.raw<int64_t>()[i], false);
      s[10] = ' ';
      *out += s;
      return;
    }
    case TypeId::kString:
      *out += col.bytes_at(i);
      return;
    case TypeId::kBinary:
    case TypeId::kFixed: {
      std::string_view b = col.bytes_at(i);
      *out += '[';
      for (size_t k = 0; k < b.size(); ++k) {
        *out += fmt::format("{}{:02X}", k ? " " : "", static_cast<uint8_t>(b[k]));
      }
      *out += ']';
      return;
    }
    case TypeId::kStruct: {
      *out += '{';
      for (size_t c = 0; c < col.num_children(); ++c) {
        if (c) *out += ", ";
        render(col.child(c), i, out);
      }
      *out += '}';
      return;
    }
    case TypeId::kList: {
      *out += '[';
      for (int32_t k = col.list_begin(i); k < col.list_end(i); ++k) {
        if (k != col.list_begin(i)) *out += ", ";
        render(col.child(0), k, out);
      }
      *out += ']';
      return;
    }
    case TypeId::kMap: {
      *out += '{';
      for (int32_t k = col.list_begin(i); k < col.list_end(i); ++k) {
        if (k != col.list_begin(i)) *out += ", ";
        render(col.child(0), k, out);
        *out += " -> ";
        render(col.child(1), k, out);
      }
      *out += '}';
      return;
    }
    default:
      *out += col.literal_at(i).to_string();
      return;
  }
}

}  // namespace

std::string csv_escape(const std::string& v) {
  if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
  std::string out = "\"";
  for (char c : v) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string spark_cell(const ColumnVector& col, int64_t row) {
  std::string out;
  render(col, row, &out);
  return out;
}

void ResultPrinter::begin(const std::vector<NestedField>& fields) {
  header_.clear();
  for (const auto& f : fields) header_.push_back(f.name);
  if (format_ == Format::kCsv) {
    for (size_t c = 0; c < header_.size(); ++c) out_ << (c ? "," : "") << csv_escape(header_[c]);
    out_ << "\n";
  }
}

void ResultPrinter::add(const ColumnBatch& batch) {
  for (int64_t r = 0; r < batch.num_rows; ++r) {
    ++count_;
    if (format_ == Format::kJson) {
      line_.clear();
      write_row_json(batch, r, JsonOptions{}, &line_);
      out_ << line_ << "\n";
      continue;
    }
    std::vector<std::string> cells;
    cells.reserve(batch.columns.size());
    for (const auto& c : batch.columns) cells.push_back(spark_cell(*c, r));
    if (format_ == Format::kCsv) {
      for (size_t c = 0; c < cells.size(); ++c) out_ << (c ? "," : "") << csv_escape(cells[c]);
      out_ << "\n";
    } else if (max_rows < 0 || static_cast<int64_t>(rows_.size()) < max_rows) {
      if (cell_text) {
        for (auto& cell : cells) cell = cell_text(std::move(cell));
      }
      rows_.push_back(std::move(cells));
    }
  }
}

namespace {
std::vector<std::string> split_lines(const std::string& v) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t nl = v.find('\n', start);
    out.push_back(v.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  if (out.size() > 1 && out.back().empty()) out.pop_back();
  return out;
}
}  // namespace

int64_t ResultPrinter::end() {
  if (format_ != Format::kTable) return count_;
  // Multi-line values (SHOW CREATE TABLE) print as several physical lines of one row.
  std::vector<size_t> widths(header_.size(), 1);
  for (size_t c = 0; c < header_.size(); ++c) {
    widths[c] = std::max(widths[c], display_width(header_[c]));
  }
  for (const auto& r : rows_) {
    for (size_t c = 0; c < r.size() && c < widths.size(); ++c) {
      for (const auto& line : split_lines(r[c]))
        widths[c] = std::max(widths[c], display_width(line));
    }
  }
  std::string rule = "+";
  for (size_t w : widths) rule += std::string(w, '-') + "+";
  auto emit = [&](const std::vector<std::string>& row) {
    std::vector<std::vector<std::string>> cells;
    size_t height = 1;
    for (size_t c = 0; c < widths.size(); ++c) {
      cells.push_back(split_lines(c < row.size() ? row[c] : std::string()));
      height = std::max(height, cells.back().size());
    }
    for (size_t h = 0; h < height; ++h) {
      std::string line = "|";
      for (size_t c = 0; c < widths.size(); ++c) {
        const std::string v = h < cells[c].size() ? cells[c][h] : std::string();
        // One-line values align right like Spark's show(); multi-line text reads left-aligned.
        std::string pad(widths[c] - display_width(v), ' ');
        line += (cells[c].size() > 1 ? v + pad : pad + v) + "|";
      }
      out_ << line << "\n";
    }
  };
  out_ << rule << "\n";
  emit(header_);
  out_ << rule << "\n";
  for (const auto& r : rows_) emit(r);
  out_ << rule << "\n";
  if (static_cast<int64_t>(rows_.size()) < count_) {
    out_ << "only showing top " << rows_.size() << (rows_.size() == 1 ? " row" : " rows") << "\n";
  }
  rows_.clear();
  return count_;
}

}  // namespace floe::cli
