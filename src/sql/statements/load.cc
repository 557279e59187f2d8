#include "floe/sql/load.h"

#include <fmt/format.h>

#include <functional>

#include "floe/format/text/csv_reader.h"
#include "floe/format/text/json_lines_reader.h"
#include "floe/table/table.h"
#include "floe/util/strings.h"
#include "sql/binder/binder_internal.h"
#include "sql/binder/store_assignment_internal.h"
#include "sql/exec/bound_expr_internal.h"
#include "sql/exec/plan_internal.h"
#include "sql/functions/function_internal.h"
#include "sql/statements/load_internal.h"
#include "sql/statements/table_write_internal.h"

namespace floe::sql {

namespace {

Result<std::string> detect_format(const std::string& path, const std::string& given) {
  std::string f = to_lower(given);
  if (f.empty()) {
    std::string lower = to_lower(path);
    if (lower.ends_with(".csv") || lower.ends_with(".tsv")) {
      f = "csv";
    } else if (lower.ends_with(".parquet")) {
      f = "parquet";
    } else if (lower.ends_with(".jsonl") || lower.ends_with(".ndjson") ||
               lower.ends_with(".json")) {
      f = "jsonl";
    } else {
      return invalid_argument(
          "cannot tell the format of {} from its name: give --format csv|parquet|jsonl", path);
    }
  }
  if (f == "json" || f == "ndjson") f = "jsonl";
  if (f != "csv" && f != "parquet" && f != "jsonl") {
    return invalid_argument("unknown load format '{}' (csv, parquet or jsonl)", given);
  }
  return f;
}

// Receives the file's batches and where their rows are.
using FileSink = std::function<Status(const ColumnBatch& batch, const Locate& locate)>;

// A file's columns and a way to stream its batches.
struct FileSource {
  std::vector<NestedField> fields;
  std::function<Status(const FileSink& sink)> stream;
};

constexpr int64_t kBatchRows = 64 * 1024;

// A text reader's batches into the sink, each row located by its line in the file.
template <typename Reader>
Status stream_lines(Reader& reader, const std::vector<NestedField>& fields, const FileSink& sink) {
  Locate locate = [&](int64_t r) { return fmt::format("line {}", reader.lines()[r]); };
  while (true) {
    ColumnBatch batch = ColumnBatch::make(fields);
    bool more = FLOE_TRY(reader.read_batch(&batch, kBatchRows));
    if (batch.num_rows) FLOE_TRY(sink(batch, locate));
    if (!more) return Status::OK();
  }
}

Result<FileSource> csv_source(const std::string& path, const LoadOptions& options) {
  CsvOptions csv;
  csv.header = options.header;
  csv.delimiter = options.delimiter;
  csv.empty_as_null = true;
  csv.strict = true;
  std::vector<std::string> names = FLOE_TRY(text::CsvReader::column_names(path, csv));
  FileSource source;
  source.fields = make_fields(names, std::vector<TypePtr>(names.size(), Type::string()));
  source.stream = [path, csv, fields = source.fields](const FileSink& sink) -> Status {
    auto reader = FLOE_TRY(text::CsvReader::open(path, csv));
    return stream_lines(*reader, fields, sink);
  };
  return source;
}

FileSource json_lines_source(const std::string& path, const Schema& schema) {
  std::vector<std::string> names;
  for (const auto& f : schema.fields()) names.push_back(f.name);
  FileSource source;
  source.fields = make_fields(names, std::vector<TypePtr>(names.size(), Type::string()));
  source.stream = [path, names, fields = source.fields](const FileSink& sink) -> Status {
    auto reader = FLOE_TRY(text::JsonLinesReader::open(path, names));
    return stream_lines(*reader, fields, sink);
  };
  return source;
}

Result<FileSource> parquet_source(const std::string& path, int threads) {
  std::shared_ptr<PlanNode> node = FLOE_TRY(ParquetFileNode::make(path));
  FileSource source;
  source.fields = node->fields();
  source.stream = [node, threads](const FileSink& sink) -> Status {
    ExecContext exec;
    exec.threads = threads;
    int64_t rows_before = 0;
    Locate locate = [&](int64_t r) { return fmt::format("row {}", rows_before + r + 1); };
    return run_plan(*node, exec, [&](ColumnBatch&& batch) -> Status {
      FLOE_TRY(sink(batch, locate));
      rows_before += batch.num_rows;
      return Status::OK();
    });
  };
  return source;
}

}  // namespace

Status Loader::plan(const std::vector<NestedField>& source, bool by_position) {
  const auto& fields = schema_.fields();
  columns_.assign(fields.size(), {});
  if (by_position) {
    if (source.size() > fields.size()) {
      return invalid_argument("{} has {} columns but the table has {}", path_, source.size(),
                              fields.size());
    }
    for (size_t i = 0; i < source.size(); ++i) columns_[i].source = static_cast<int>(i);
  } else {
    for (size_t s = 0; s < source.size(); ++s) {
      size_t t = 0;
      while (t < fields.size() && !iequals(fields[t].name, source[s].name)) ++t;
      if (t == fields.size()) {
        return invalid_argument("{}: column '{}' is not in the table (columns: {})", path_,
                                source[s].name, names());
      }
      if (columns_[t].source >= 0) {
        return invalid_argument("{}: columns '{}' and '{}' both name table column '{}'", path_,
                                source[columns_[t].source].name, source[s].name, fields[t].name);
      }
      columns_[t].source = static_cast<int>(s);
    }
  }
  for (size_t t = 0; t < fields.size(); ++t) {
    ColumnPlan& c = columns_[t];
    const NestedField& target = fields[t];
    if (c.source < 0) {
      if (target.required) {
        return invalid_argument("{}: required column '{}' is missing", path_, target.name);
      }
      continue;
    }
    const TypePtr& from = source[c.source].type;
    if (*from == *target.type) continue;
    // Text (CSV, JSON Lines, a Parquet string) is parsed as any primitive type, strictly.
    const bool parse = from->id() == TypeId::kString && target.type->is_primitive();
    if (!parse && !can_store_assign(*from, *target.type)) {
      return invalid_argument("{}: column '{}' is {} in the file and {} in the table", path_,
                              target.name, spark_type_name(*from), spark_type_name(*target.type));
    }
    if (!internal::can_cast(*from, *target.type)) {
      return invalid_argument("{}: column '{}' cannot be loaded as {}", path_, target.name,
                              spark_type_name(*target.type));
    }
    c.convert = true;
  }
  return Status::OK();
}

Result<ColumnBatch> Loader::convert(const ColumnBatch& in, const Locate& locate,
                                    const uint8_t* complete) {
  const auto& fields = schema_.fields();
  ColumnBatch out;
  out.fields = fields;
  out.num_rows = in.num_rows;
  for (size_t t = 0; t < fields.size(); ++t) {
    const ColumnPlan& c = columns_[t];
    ColumnPtr column;
    if (c.source < 0) {
      column = ColumnVector::make(fields[t].type);
      for (int64_t r = 0; r < in.num_rows; ++r) column->append_null();
    } else if (!c.convert) {
      column = in.columns[c.source];
    } else {
      AssignFailure failure;
      column = FLOE_TRY(store_assign(in.columns[c.source], fields[t].type, &failure));
      if (!column) {
        return invalid_data("{} {}, column '{}': {}", path_, locate(failure.row), fields[t].name,
                            failure.reason);
      }
    }
    if (fields[t].required && column->null_count() > 0) {
      int64_t r = 0;
      while (r < in.num_rows && !(column->is_null(r) && (!complete || complete[r]))) ++r;
      if (r < in.num_rows) {
        return invalid_data("{} {}, column '{}': no value for a required column", path_, locate(r),
                            fields[t].name);
      }
    }
    out.columns.push_back(std::move(column));
  }
  rows_ += in.num_rows;
  return out;
}

std::string Loader::names() const {
  std::string out;
  for (const auto& f : schema_.fields()) out += (out.empty() ? "" : ", ") + f.name;
  return out;
}

Result<std::shared_ptr<Table>> load_named_table(Session& session, std::string_view table_name) {
  CatalogPtr catalog = FLOE_TRY(session.catalog(false));
  TableIdentifier id = FLOE_TRY(session.identifier(split(table_name, '.')));
  if (!catalog || !FLOE_TRY(catalog->table_exists(id))) {
    return not_found("table {} not found in catalog {}", id.to_string(),
                     session.options().catalog_name);
  }
  std::shared_ptr<Table> table = FLOE_TRY(Table::load(catalog, id));
  return table;
}

Result<LoadResult> load_file(Session& session, std::string_view table_name, const std::string& path,
                             const LoadOptions& options) {
  std::string format = FLOE_TRY(detect_format(path, options.format));
  std::shared_ptr<Table> table = FLOE_TRY(load_named_table(session, table_name));
  auto metadata = table->metadata();
  const Schema& schema = *metadata->schema();
  const int threads = session.options().threads;

  FileSource source;
  bool by_position = false;
  if (format == "csv") {
    source = FLOE_TRY(csv_source(path, options));
    by_position = !options.header;
  } else if (format == "parquet") {
    source = FLOE_TRY(parquet_source(path, threads));
  } else {
    source = json_lines_source(path, schema);
  }

  Loader loader(path, schema);
  FLOE_TRY(loader.plan(source.fields, by_position));
  RowSource rows = [&](const BatchSink& sink) {
    return source.stream([&](const ColumnBatch& batch, const Locate& locate) -> Status {
      ColumnBatch converted = FLOE_TRY(loader.convert(batch, locate));
      FLOE_TRY(sink(std::move(converted)));
      if (options.progress) options.progress(loader.rows());
      return Status::OK();
    });
  };
  // Rows in the table's write order (ALTER TABLE ... WRITE ORDERED BY), as INSERT writes them.
  TableWriter::RowOrder order = FLOE_TRY(table_row_order(*metadata));
  int64_t snapshot_id = 0;
  WriteResult written = FLOE_TRY(write_rows(
      *table, rows,
      [&](std::vector<DataFile> files) -> Status {
        // An empty file (or a header alone) is a mistake more often than not: say so instead
        // of committing an empty snapshot.
        if (loader.rows() == 0) {
          return invalid_data("{} has no rows: nothing was loaded and nothing was committed", path);
        }
        AppendFiles append = table->new_append();
        stamp_engine(append);
        for (auto& f : files) append.append_file(std::move(f));
        snapshot_id = append.snapshot_id();
        return append.commit();
      },
      threads, nullptr, false, std::move(order)));
  LoadResult result;
  result.rows = written.rows;
  result.files = written.files;
  result.snapshot_id = snapshot_id;
  return result;
}

}  // namespace floe::sql
