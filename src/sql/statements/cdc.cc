// Change streams into tables (include/floe/sql/cdc.h): records parsed here, values stored by
// the loader `floe load` uses (load_internal.h), batches committed by UpsertWriter.
#include "floe/sql/cdc.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "floe/table/table.h"
#include "floe/util/strings.h"
#include "sql/statements/load_internal.h"
#include "sql/statements/table_write_internal.h"

namespace floe::sql {

namespace {

constexpr const char* kOps = "Debezium: c, u, d or r; plain: upsert or delete";

std::vector<NestedField> string_fields(const std::vector<std::string>& columns) {
  std::vector<NestedField> fields;
  for (size_t i = 0; i < columns.size(); ++i) {
    NestedField f;
    f.id = static_cast<int32_t>(i + 1);
    f.name = columns[i];
    f.type = Type::string();
    fields.push_back(std::move(f));
  }
  return fields;
}

Status check_batching(const ChangeStreamOptions& options) {
  if (options.batch_rows < 1) {
    return invalid_argument("the batch size (--batch-rows) must be at least 1 record, not {}",
                            options.batch_rows);
  }
  if (options.batch_ms < 0) {
    return invalid_argument(
        "the batch time (--batch-ms) must be 0 (no limit) or more milliseconds, not {}",
        options.batch_ms);
  }
  return Status::OK();
}

}  // namespace

// ---- ChangeStreamReader ----

Result<std::unique_ptr<ChangeStreamReader>> ChangeStreamReader::make(
    std::unique_ptr<text::LineReader> lines, std::vector<std::string> columns,
    std::vector<size_t> keys, ChangeStreamOptions options) {
  FLOE_TRY(check_batching(options));
  auto r = std::unique_ptr<ChangeStreamReader>(new ChangeStreamReader());
  r->name_ = lines->label();
  r->lines_ = std::move(lines);
  r->row_ = std::make_unique<text::JsonRowWriter>(columns);
  r->fields_ = string_fields(columns);
  r->key_mask_.assign(columns.size(), 0);
  for (size_t k : keys) {
    if (k >= columns.size()) {
      return invalid_argument("key column index {} is past the {} columns", k, columns.size());
    }
    r->key_mask_[k] = 1;
  }
  r->columns_ = std::move(columns);
  r->keys_ = std::move(keys);
  r->options_ = options;
  return r;
}

Result<std::unique_ptr<ChangeStreamReader>> ChangeStreamReader::from_fd(
    int fd, std::string name, std::vector<std::string> columns, std::vector<size_t> keys,
    ChangeStreamOptions options) {
  return make(text::LineReader::from_fd(fd, std::move(name), options.json.max_line_bytes),
              std::move(columns), std::move(keys), options);
}

Result<std::unique_ptr<ChangeStreamReader>> ChangeStreamReader::open(
    const std::string& path, std::vector<std::string> columns, std::vector<size_t> keys,
    ChangeStreamOptions options) {
  return make(FLOE_TRY(text::LineReader::open(path, path, options.json.max_line_bytes)),
              std::move(columns), std::move(keys), options);
}

ChangeStreamReader::~ChangeStreamReader() = default;

namespace {

// The value of column `name` in a JSON row (names match case-insensitively), or null.
const nlohmann::json* column_value(const nlohmann::json& row, const std::string& name) {
  for (auto it = row.begin(); it != row.end(); ++it) {
    if (iequals(it.key(), name)) return &*it;
  }
  return nullptr;
}

}  // namespace

// A Debezium update that changes the key: the row under the old key goes too, as a delete
// (Debezium usually sends a delete and a create instead, but an update may carry both keys).
Status ChangeStreamReader::delete_old_key(const nlohmann::json& change, const nlohmann::json& after,
                                          const std::string& where, int64_t line_no,
                                          ChangeBatch* out) {
  auto before = change.find("before");
  if (before == change.end() || !before->is_object()) return Status::OK();
  bool moved = false;
  for (size_t k : keys_) {
    const nlohmann::json* old_value = column_value(*before, columns_[k]);
    const nlohmann::json* new_value = column_value(after, columns_[k]);
    if (!old_value || old_value->is_null()) return Status::OK();  // the old key is unknown
    moved = moved || !new_value || *old_value != *new_value;
  }
  if (!moved) return Status::OK();
  FLOE_TRY(row_->append(*before, &out->rows, where + " (\"before\" row)", &key_mask_));
  out->kinds.push_back(ChangeKind::kDelete);
  out->lines.push_back(line_no);
  return Status::OK();
}

Status ChangeStreamReader::read_record(const std::string& line, int64_t line_no, ChangeBatch* out) {
  const std::string where = fmt::format("{} line {}", name_, line_no);
  const nlohmann::json object = FLOE_TRY(text::parse_json_object(line, where, options_.json));
  // Debezium's JSON converter with schemas wraps the change as {"schema": ..., "payload": ...}.
  const nlohmann::json* change = &object;
  auto op = object.find("op");
  if (op == object.end()) {
    auto payload = object.find("payload");
    if (payload != object.end() && payload->is_object()) {
      change = &*payload;
      op = change->find("op");
    }
  }
  if (op == change->end() || !op->is_string()) {
    return invalid_data("{}: the record has no \"op\" string ({})", where, kOps);
  }
  const std::string& name = op->get_ref<const std::string&>();
  ChangeKind kind;
  const char* row_key;
  if (name == "c" || name == "r" || name == "u") {
    kind = ChangeKind::kUpsert;
    row_key = "after";
  } else if (name == "d") {
    kind = ChangeKind::kDelete;
    row_key = "before";
  } else if (name == "upsert" || name == "delete") {
    kind = name == "upsert" ? ChangeKind::kUpsert : ChangeKind::kDelete;
    row_key = "row";
  } else {
    return invalid_data("{}: unknown op \"{}\" ({})", where, name, kOps);
  }
  auto row = change->find(row_key);
  if (row == change->end() || row->is_null()) {
    return invalid_data("{}: op \"{}\" has no \"{}\" row", where, name, row_key);
  }
  if (!row->is_object()) {
    return invalid_data("{}: the \"{}\" row of op \"{}\" is a JSON {}, not an object", where,
                        row_key, name, row->type_name());
  }
  if (name == "u") FLOE_TRY(delete_old_key(*change, *row, where, line_no, out));
  FLOE_TRY(
      row_->append(*row, &out->rows, where, kind == ChangeKind::kDelete ? &key_mask_ : nullptr));
  for (size_t k : keys_) {
    if (!row_->has_value(k)) {
      return invalid_data("{}: the \"{}\" row has no value for key column '{}'", where, row_key,
                          columns_[k]);
    }
  }
  out->kinds.push_back(kind);
  out->lines.push_back(line_no);
  return Status::OK();
}

Result<bool> ChangeStreamReader::next(ChangeBatch* out) {
  using Clock = std::chrono::steady_clock;
  out->rows = ColumnBatch::make(fields_);
  out->kinds.clear();
  out->lines.clear();
  out->records = 0;
  if (ended_) return false;
  Clock::time_point deadline;
  while (true) {
    int64_t wait_ms = -1;
    if (out->size() > 0 && options_.batch_ms > 0) {
      wait_ms = std::max<int64_t>(
          0,
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
    }
    auto next = FLOE_TRY(lines_->next(&line_, wait_ms));
    if (next == text::LineReader::Next::kIdle) return true;
    if (next == text::LineReader::Next::kEnd) {
      ended_ = true;
      return out->size() > 0;
    }
    if (trim(line_).empty()) continue;
    FLOE_TRY(read_record(line_, lines_->line_number(), out));
    const auto now = Clock::now();
    ++out->records;
    if (out->records == 1) deadline = now + std::chrono::milliseconds(options_.batch_ms);
    if (out->records >= options_.batch_rows) return true;
    if (options_.batch_ms > 0 && now >= deadline) return true;
  }
}

// ---- apply_changes ----

namespace {

using OpenReader = std::function<Result<std::unique_ptr<ChangeStreamReader>>(
    std::vector<std::string> columns, std::vector<size_t> keys, ChangeStreamOptions options)>;

std::string plural(int64_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// What stays committed when a batch fails.
std::string committed_before(const CdcResult& done) {
  if (done.batches == 0) return "no batch before it was committed";
  return fmt::format("{} before it ({}, up to snapshot {}) {} committed",
                     plural(done.batches, "batch", "batches"),
                     plural(done.records, "record", "records"),
                     done.last_snapshot_id ? std::to_string(*done.last_snapshot_id) : "-",
                     done.batches == 1 ? "stays" : "stay");
}

Result<CdcResult> run(Session& session, std::string_view table_name, const std::string& name,
                      const OpenReader& open_reader, const CdcOptions& options) {
  ChangeStreamOptions stream;
  stream.batch_rows = options.batch_rows;
  stream.batch_ms = options.batch_ms;
  FLOE_TRY(check_batching(stream));
  std::shared_ptr<Table> table = FLOE_TRY(load_named_table(session, table_name));
  const TableIdentifier& id = table->id();
  auto metadata = table->metadata();
  const Schema& schema = *metadata->schema();
  std::vector<std::string> columns;
  for (const auto& f : schema.fields()) columns.push_back(f.name);

  UpsertOptions upsert;
  for (const auto& key : options.keys) {
    const NestedField* f = schema.find_field(key, /*case_sensitive=*/false);
    if (!f) {
      std::string all;
      for (const auto& c : columns) all += (all.empty() ? "" : ", ") + c;
      return invalid_argument("table {}: key column '{}' is not a column (columns: {})",
                              id.to_string(), key, all);
    }
    upsert.key_ids.push_back(f->id);
  }
  if (upsert.key_ids.empty() && schema.identifier_field_ids().empty()) {
    return invalid_argument(
        "table {} has no identifier fields: name the key columns (floe cdc --key COL)",
        id.to_string());
  }
  upsert.summary = engine_summary();
  auto writer = FLOE_TRY(UpsertWriter::make(table, upsert));
  // The key columns of the records: the top-level columns holding the key fields.
  std::vector<size_t> keys;
  for (size_t c = 0; c < schema.fields().size(); ++c) {
    if (writer->delete_schema()->find_field(schema.fields()[c].id)) keys.push_back(c);
  }

  Loader loader(name, schema);
  FLOE_TRY(loader.plan(string_fields(columns), /*by_position=*/false));
  auto reader = FLOE_TRY(open_reader(columns, keys, stream));

  CdcResult done;
  ChangeBatch batch;
  std::vector<uint8_t> upserts;
  while (true) {
    auto more = reader->next(&batch);
    if (!more.ok()) {
      std::string from =
          batch.lines.empty() ? "" : fmt::format(" (from line {})", batch.lines.front());
      return Status(more.status().kind(),
                    fmt::format("{}; nothing of its batch{} was committed, {}",
                                more.status().message(), from, committed_before(done)));
    }
    if (!*more) break;
    const std::string lines =
        batch.size() == 1 ? fmt::format("line {}", batch.lines.front())
                          : fmt::format("lines {} to {}", batch.lines.front(), batch.lines.back());
    upserts.assign(batch.kinds.size(), 0);
    for (size_t r = 0; r < batch.kinds.size(); ++r) {
      upserts[r] = batch.kinds[r] == ChangeKind::kUpsert;
    }
    Locate locate = [&](int64_t r) {
      return fmt::format("line {}", batch.lines[static_cast<size_t>(r)]);
    };
    Status status;
    auto rows = loader.convert(batch.rows, locate, upserts.data());
    if (rows.ok()) {
      status = writer->add(*rows, batch.kinds);
    } else {
      status = rows.status();
    }
    if (!status.ok()) {
      writer->discard();
      return Status(status.kind(), fmt::format("{}; nothing of its batch ({}) was committed, {}",
                                               status.message(), lines, committed_before(done)));
    }
    auto commit = writer->commit();
    if (!commit.ok()) {
      const bool unknown = commit.status().kind() == ErrorKind::kCommitStateUnknown;
      return Status(
          commit.status().kind(),
          fmt::format(
              "committing the batch of {} failed: {}; {}, {}", lines, commit.status().message(),
              unknown ? "it may or may not have been committed" : "nothing of it was committed",
              committed_before(done)));
    }
    done.records += batch.records;
    for (ChangeKind k : batch.kinds) (k == ChangeKind::kUpsert ? done.upserts : done.deletes)++;
    done.batches++;
    if (commit->snapshot_id) {
      done.snapshots++;
      done.last_snapshot_id = commit->snapshot_id;
    }
    done.rows_written += commit->upserts;
    done.data_files += static_cast<int64_t>(commit->data_files);
    done.delete_files += static_cast<int64_t>(commit->delete_files);
    if (options.progress) options.progress(done);
  }
  return done;
}

}  // namespace

Result<CdcResult> apply_changes(Session& session, std::string_view table, int fd,
                                const std::string& name, const CdcOptions& options) {
  return run(
      session, table, name,
      [&](std::vector<std::string> columns, std::vector<size_t> keys, ChangeStreamOptions stream) {
        return ChangeStreamReader::from_fd(fd, name, std::move(columns), std::move(keys), stream);
      },
      options);
}

Result<CdcResult> apply_changes(Session& session, std::string_view table, const std::string& path,
                                const CdcOptions& options) {
  if (path == "-") return apply_changes(session, table, STDIN_FILENO, "<stdin>", options);
  return run(
      session, table, path,
      [&](std::vector<std::string> columns, std::vector<size_t> keys, ChangeStreamOptions stream) {
        return ChangeStreamReader::open(path, std::move(columns), std::move(keys), stream);
      },
      options);
}

}  // namespace floe::sql
