#include "cli/result_format_internal.h"
#include "cli/row_printer_internal.h"

namespace floe::cli {

namespace {

std::string cell_text(const ColumnVector& col, int64_t i) {
  if (col.is_null(i)) return "NULL";
  if (col.type()->is_nested()) {
    std::string json;
    write_value_json(col, i, JsonOptions{}, &json);
    return json;
  }
  return col.literal_at(i).to_string();
}

}  // namespace

RowPrinter::RowPrinter(OutputFormat format, std::ostream& out, std::vector<std::string> header,
                       int64_t limit)
    : format_(format), out_(out), header_(std::move(header)), limit_(limit) {}

void RowPrinter::start(const ColumnBatch* batch) {
  if (started_) return;
  started_ = true;
  if (batch != nullptr) {
    header_.clear();
    for (const auto& f : batch->fields) header_.push_back(f.name);
  }
  if (format_ == OutputFormat::kTable) text_ = std::make_unique<TextTable>(header_);
  if (format_ == OutputFormat::kCsv) {
    for (size_t c = 0; c < header_.size(); ++c) out_ << (c ? "," : "") << csv_escape(header_[c]);
    out_ << "\n";
  }
}

Status RowPrinter::add(const ColumnBatch& batch) {
  start(&batch);
  for (int64_t r = 0; r < batch.num_rows; ++r) {
    if (limit_ >= 0 && printed_ >= limit_) break;
    if (format_ == OutputFormat::kJson) {
      line_.clear();
      write_row_json(batch, r, JsonOptions{}, &line_);
      out_ << line_ << "\n";
    } else {
      std::vector<std::string> cells;
      cells.reserve(batch.columns.size());
      for (const auto& c : batch.columns) cells.push_back(cell_text(*c, r));
      if (format_ == OutputFormat::kCsv) {
        for (size_t c = 0; c < cells.size(); ++c) out_ << (c ? "," : "") << csv_escape(cells[c]);
        out_ << "\n";
      } else {
        text_->add_row(std::move(cells));
      }
    }
    ++printed_;
  }
  if (limit_ >= 0 && printed_ >= limit_) return Status(ErrorKind::kCancelled, "limit reached");
  return Status::OK();
}

void RowPrinter::finish() {
  start(nullptr);
  if (format_ == OutputFormat::kTable) {
    text_->print(out_, true);
    out_ << "(" << printed_ << " row" << (printed_ == 1 ? "" : "s") << ")\n";
  }
}

}  // namespace floe::cli
