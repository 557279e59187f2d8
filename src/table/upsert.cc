// Blind upserts by equality deletes (include/floe/table/upsert.h).
#include "floe/table/upsert.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "floe/columnar/kernels.h"
#include "floe/read/batch_ops.h"
#include "floe/table/snapshot_producer.h"
#include "floe/write/data_writer.h"
#include "floe/write/delete_fanout.h"

namespace floe {

namespace {

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Iceberg's rules for equality delete columns (those of identifier fields, optional columns
// allowed): a primitive, not float or double, not inside a list or map.
Status check_key_column(const Schema& schema, int32_t id, const std::string& table) {
  const NestedField* f = schema.find_field(id);
  if (!f) return invalid_argument("table {}: key field id {} is not in the schema", table, id);
  const std::string name = schema.find_column_name(id).value_or(f->name);
  if (!f->type->is_primitive()) {
    return invalid_argument("table {}: key column {} is {}, not a primitive type", table, name,
                            f->type->to_string());
  }
  if (f->type->id() == TypeId::kFloat || f->type->id() == TypeId::kDouble) {
    return invalid_argument(
        "table {}: key column {} is {}: float and double columns cannot be equality delete "
        "columns",
        table, name, f->type->to_string());
  }
  for (auto p = schema.parent_id(id); p; p = schema.parent_id(*p)) {
    const NestedField* parent = schema.find_field(*p);
    if (parent && !parent->type->is_struct()) {
      return invalid_argument("table {}: key column {} is nested in a list or map", table, name);
    }
  }
  return Status::OK();
}

int32_t top_level_id(const Schema& schema, int32_t id) {
  for (auto p = schema.parent_id(id); p; p = schema.parent_id(id)) id = *p;
  return id;
}

}  // namespace

Result<std::unique_ptr<UpsertWriter>> UpsertWriter::make(std::shared_ptr<Table> table,
                                                         UpsertOptions options) {
  auto metadata = table->metadata();
  const std::string name = table->id().to_string();
  const Schema* schema = metadata->schema();
  const PartitionSpec* spec = metadata->spec();
  if (!schema || !spec) return invalid_data("table {} has no current schema or spec", name);
  if (metadata->format_version < 2) {
    return invalid_argument(
        "table {} is format version {}: upserts write equality deletes, which need format "
        "version 2 or later",
        name, metadata->format_version);
  }
  std::vector<int32_t> keys = options.key_ids;
  if (keys.empty()) keys = schema->identifier_field_ids();
  if (keys.empty()) {
    return invalid_argument(
        "table {}: no key columns: name them or give the table identifier fields", name);
  }
  auto w = std::unique_ptr<UpsertWriter>(new UpsertWriter());
  for (int32_t id : keys) {
    FLOE_TRY(check_key_column(*schema, id, name));
    std::string column = schema->find_column_name(id).value_or(std::to_string(id));
    if (std::find(w->key_ids_.begin(), w->key_ids_.end(), id) != w->key_ids_.end()) {
      return invalid_argument("table {}: key column {} is given twice", name, column);
    }
    w->key_ids_.push_back(id);
    w->key_names_.push_back(std::move(column));
  }
  // An equality delete in a partitioned table applies only to data files of its partition
  // (spec "Scan Planning"), so the partition of a key's old row must follow from the key.
  for (const auto& pf : spec->fields()) {
    if (pf.transform.is_void()) continue;
    std::vector<int32_t> sources =
        pf.source_ids.empty() ? std::vector<int32_t>{pf.source_id} : pf.source_ids;
    for (int32_t source : sources) {
      if (std::find(w->key_ids_.begin(), w->key_ids_.end(), source) != w->key_ids_.end()) {
        continue;
      }
      const std::string column = schema->find_column_name(source).value_or(std::to_string(source));
      return invalid_argument(
          "table {}: partition field {} ({}) comes from column {}, which is not a key column "
          "(key: {}). An equality delete reaches only data in its own partition, so upserts need "
          "every partition source column in the key, as Iceberg's Flink writer requires in "
          "upsert mode: add {} to the key",
          name, pf.name, pf.transform.to_string(), column, join_names(w->key_names_), column);
    }
  }
  // The delete rows: the top-level columns holding key fields, in schema order.
  std::vector<NestedField> delete_fields;
  for (const auto& f : schema->fields()) {
    for (int32_t id : w->key_ids_) {
      if (top_level_id(*schema, id) == f.id) {
        delete_fields.push_back(f);
        break;
      }
    }
  }
  w->delete_schema_ = std::make_shared<const Schema>(schema->schema_id(), delete_fields);
  w->table_ = std::move(table);
  w->options_ = std::move(options);
  w->metadata_ = std::move(metadata);
  return w;
}

UpsertWriter::~UpsertWriter() = default;

Status UpsertWriter::add(const ColumnBatch& rows, std::span<const ChangeKind> kinds) {
  const Schema& schema = *metadata_->schema();
  const std::string name = table_->id().to_string();
  const int64_t n = rows.num_rows;
  if (static_cast<int64_t>(kinds.size()) != n) {
    return invalid_argument("changes to {}: {} rows but {} change kinds", name, n, kinds.size());
  }
  if (n == 0) return Status::OK();
  ColumnBatch staged;
  staged.num_rows = n;
  for (const auto& f : schema.fields()) {
    int idx = rows.find(f.id);
    ColumnPtr col;
    if (idx < 0) {
      col = null_column(f.type, n);
    } else {
      col = rows.columns[static_cast<size_t>(idx)];
      if (!col->type()->equals(*f.type)) {
        return invalid_argument("changes to {}: column {} is {}, the table's is {}", name, f.name,
                                col->type()->to_string(), f.type->to_string());
      }
      if (col->length() != n) {
        return invalid_argument("changes to {}: column {} has {} rows, the batch {}", name, f.name,
                                col->length(), n);
      }
    }
    if (f.required && col->null_count() > 0) {
      for (int64_t r = 0; r < n; ++r) {
        if (kinds[static_cast<size_t>(r)] == ChangeKind::kUpsert && col->is_null(r)) {
          return invalid_argument("changes to {}: upsert row {} has no value for column {}", name,
                                  r, f.name);
        }
      }
    }
    staged.fields.push_back(f);
    staged.columns.push_back(std::move(col));
  }
  for (size_t k = 0; k < key_ids_.size(); ++k) {
    if (rows.find(top_level_id(schema, key_ids_[k])) < 0) {
      return invalid_argument("changes to {}: the rows have no key column {}", name, key_names_[k]);
    }
  }
  staged_.push_back(std::move(staged));
  kinds_.insert(kinds_.end(), kinds.begin(), kinds.end());
  pending_rows_ += n;
  return Status::OK();
}

Status UpsertWriter::upsert(const ColumnBatch& rows) {
  std::vector<ChangeKind> kinds(static_cast<size_t>(rows.num_rows), ChangeKind::kUpsert);
  return add(rows, kinds);
}

Status UpsertWriter::remove(const ColumnBatch& rows) {
  std::vector<ChangeKind> kinds(static_cast<size_t>(rows.num_rows), ChangeKind::kDelete);
  return add(rows, kinds);
}

void UpsertWriter::discard() {
  staged_.clear();
  kinds_.clear();
  pending_rows_ = 0;
}

Result<UpsertCommit> UpsertWriter::commit() {
  std::vector<ColumnBatch> staged = std::move(staged_);
  std::vector<ChangeKind> kinds = std::move(kinds_);
  discard();
  if (kinds.empty()) return UpsertCommit{};
  ColumnBatch rows = FLOE_TRY(concat_batches(staged, metadata_->schema()->fields()));
  staged.clear();
  return write_and_commit(rows, kinds);
}

Result<UpsertCommit> UpsertWriter::write_and_commit(const ColumnBatch& rows,
                                                    const std::vector<ChangeKind>& kinds) {
  const int64_t n = rows.num_rows;
  UpsertCommit result;
  result.changes = n;

  // The last change of each key wins.
  std::vector<EqualityColumn> key_columns;
  for (int32_t id : key_ids_) key_columns.push_back(find_equality_column(rows, id));
  std::unordered_map<std::string, int32_t> last;
  last.reserve(static_cast<size_t>(n));
  std::string key;
  for (int64_t r = 0; r < n; ++r) {
    key.clear();
    for (const auto& c : key_columns) append_equality_key(c, r, &key);
    auto [it, inserted] = last.try_emplace(key, static_cast<int32_t>(r));
    if (!inserted) it->second = static_cast<int32_t>(r);
  }
  std::vector<uint8_t> wins(static_cast<size_t>(n), 0);
  for (const auto& [k, r] : last) wins[static_cast<size_t>(r)] = 1;
  std::vector<int32_t> delete_rows, upsert_rows;
  for (int32_t r = 0; r < n; ++r) {
    if (!wins[static_cast<size_t>(r)]) continue;
    delete_rows.push_back(r);
    if (kinds[static_cast<size_t>(r)] == ChangeKind::kUpsert) upsert_rows.push_back(r);
  }
  result.delete_rows = static_cast<int64_t>(delete_rows.size());
  result.upserts = static_cast<int64_t>(upsert_rows.size());
  result.deletes = result.delete_rows - result.upserts;

  // One equality delete row per key: the key's columns of its last change.
  ColumnBatch deletes;
  deletes.num_rows = static_cast<int64_t>(delete_rows.size());
  for (const auto& f : delete_schema_->fields()) {
    int idx = rows.find(f.id);
    deletes.fields.push_back(f);
    deletes.columns.push_back(gather(*rows.columns[static_cast<size_t>(idx)], delete_rows));
  }

  const FileIOPtr& io = table_->io();
  auto delete_writer =
      FLOE_TRY(EqualityDeleteFanout::make(io, *metadata_, delete_schema_, key_ids_));
  std::unique_ptr<TableWriter> data_writer;
  std::vector<DataFile> delete_files, data_files;
  Status status = delete_writer->write(deletes);
  if (status.ok()) {
    auto closed = delete_writer->close();
    status = closed.status();
    if (closed.ok()) delete_files = std::move(*closed);
  }
  if (status.ok() && !upsert_rows.empty()) {
    auto made = TableWriter::make(io, *metadata_);
    status = made.status();
    if (made.ok()) {
      data_writer = std::move(*made);
      ColumnBatch upserts = gather(rows, upsert_rows);
      status = data_writer->write(upserts);
      if (status.ok()) {
        auto closed = data_writer->close();
        status = closed.status();
        if (closed.ok()) data_files = std::move(*closed);
      }
    }
  }
  if (status.ok()) {
    RowDelta delta = table_->new_row_delta();
    if (!options_.branch.empty()) delta.to_branch(options_.branch);
    for (const auto& [k, v] : options_.summary) delta.set(k, v);
    for (auto& f : data_files) delta.add_rows(f);
    for (auto& f : delete_files) delta.add_deletes(f);
    const int64_t snapshot_id = delta.snapshot_id();
    status = delta.commit();
    if (status.ok()) result.snapshot_id = snapshot_id;
  }
  if (!status.ok()) {
    // A commit whose outcome is unknown may have made the files live: keep them.
    if (status.kind() != ErrorKind::kCommitStateUnknown) {
      (void)delete_writer->abort();
      if (data_writer) (void)data_writer->abort();
    }
    return status;
  }
  result.data_files = data_files.size();
  result.delete_files = delete_files.size();
  return result;
}

}  // namespace floe
