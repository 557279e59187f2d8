#include "floe/sql/load.h"

#include <fmt/format.h>

#include "floe/table/table.h"
#include "floe/util/strings.h"
#include "sql/binder/binder_internal.h"
#include "sql/binder/store_assignment_internal.h"
#include "sql/exec/bound_expr_internal.h"
#include "sql/exec/plan_internal.h"
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

// Per table column: the source column feeding it (or -1) and the cast from its type.
struct ColumnPlan {
  int source = -1;
  BoundExprPtr cast;   // null when the source already has the column's type
  bool check = false;  // a string parsed into another type: an unparsable value is an error
};

class Loader {
 public:
  Loader(const std::string& path, const Schema& schema) : path_(path), schema_(schema) {}

  Status plan(const std::vector<NestedField>& source, bool by_position) {
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
      const bool parse = from->id() == TypeId::kString && target.type->is_primitive();
      if (!parse && !can_store_assign(*from, *target.type)) {
        return invalid_argument("{}: column '{}' is {} in the file and {} in the table", path_,
                                target.name, spark_type_name(*from), spark_type_name(*target.type));
      }
      auto expr = column(c.source, from);
      if (expr.ok()) expr = cast(std::move(*expr), target.type);
      if (!expr.ok()) {
        return invalid_argument("{}: column '{}' cannot be loaded as {}: {}", path_, target.name,
                                spark_type_name(*target.type), expr.status().message());
      }
      c.cast = std::move(*expr);
      c.check = parse && target.type->id() != TypeId::kString;
    }
    return Status::OK();
  }

  // A batch of the file as a batch of the table schema.
  Result<ColumnBatch> convert(const ColumnBatch& in) {
    const auto& fields = schema_.fields();
    ColumnBatch out;
    out.fields = fields;
    out.num_rows = in.num_rows;
    for (size_t t = 0; t < fields.size(); ++t) {
      const ColumnPlan& c = columns_[t];
      if (c.source < 0) {
        ColumnPtr nulls = ColumnVector::make(fields[t].type);
        for (int64_t r = 0; r < in.num_rows; ++r) nulls->append_null();
        out.columns.push_back(std::move(nulls));
        continue;
      }
      if (!c.cast) {
        out.columns.push_back(in.columns[c.source]);
        continue;
      }
      ColumnPtr converted = FLOE_TRY(evaluate(*c.cast, in));
      if (c.check && converted->null_count() > in.columns[c.source]->null_count()) {
        const ColumnVector& src = *in.columns[c.source];
        for (int64_t r = 0; r < in.num_rows; ++r) {
          if (!src.is_null(r) && converted->is_null(r)) {
            return invalid_data("{} record {}: column '{}': '{}' is not a valid {}", path_,
                                rows_ + r + 1, fields[t].name, src.bytes_at(r),
                                spark_type_name(*fields[t].type));
          }
        }
      }
      out.columns.push_back(std::move(converted));
    }
    rows_ += in.num_rows;
    return out;
  }

  int64_t rows() const { return rows_; }

 private:
  std::string names() const {
    std::string out;
    for (const auto& f : schema_.fields()) out += (out.empty() ? "" : ", ") + f.name;
    return out;
  }

  std::string path_;
  const Schema& schema_;
  std::vector<ColumnPlan> columns_;
  int64_t rows_ = 0;
};

}  // namespace

Result<LoadResult> load_file(Session& session, std::string_view table_name, const std::string& path,
                             const LoadOptions& options) {
  std::string format = FLOE_TRY(detect_format(path, options.format));
  CatalogPtr catalog = FLOE_TRY(session.catalog(false));
  TableIdentifier id = FLOE_TRY(session.identifier(split(table_name, '.')));
  if (!catalog || !FLOE_TRY(catalog->table_exists(id))) {
    return not_found("table {} not found in catalog {}", id.to_string(),
                     session.options().catalog_name);
  }
  std::shared_ptr<Table> table = FLOE_TRY(Table::load(catalog, id));
  auto metadata = table->metadata();
  const Schema& schema = *metadata->schema();

  PlanPtr source;
  bool by_position = false;
  if (format == "csv") {
    CsvOptions csv;
    csv.header = options.header;
    csv.delimiter = options.delimiter;
    csv.empty_as_null = true;
    source = FLOE_TRY(CsvFileNode::make(path, csv));
    by_position = !options.header;
  } else if (format == "parquet") {
    source = FLOE_TRY(ParquetFileNode::make(path));
  } else {
    std::vector<std::string> names;
    for (const auto& f : schema.fields()) names.push_back(f.name);
    source = FLOE_TRY(JsonLinesNode::make(path, names));
  }

  Loader loader(path, schema);
  FLOE_TRY(loader.plan(source->fields(), by_position));
  ExecContext exec;
  exec.threads = session.options().threads;
  RowSource rows = [&](const BatchSink& sink) {
    return run_plan(*source, exec, [&](ColumnBatch&& batch) -> Status {
      ColumnBatch converted = FLOE_TRY(loader.convert(batch));
      FLOE_TRY(sink(std::move(converted)));
      if (options.progress) options.progress(loader.rows());
      return Status::OK();
    });
  };
  int64_t snapshot_id = 0;
  WriteResult written = FLOE_TRY(write_rows(
      *table, rows,
      [&](std::vector<DataFile> files) {
        AppendFiles append = table->new_append();
        stamp_engine(append);
        for (auto& f : files) append.append_file(std::move(f));
        snapshot_id = append.snapshot_id();
        return append.commit();
      },
      exec.threads));
  LoadResult result;
  result.rows = written.rows;
  result.files = written.files;
  result.snapshot_id = snapshot_id;
  return result;
}

}  // namespace floe::sql
