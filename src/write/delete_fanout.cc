#include "floe/write/delete_fanout.h"

#include <algorithm>
#include <limits>

#include "floe/columnar/kernels.h"
#include "floe/read/position_delete_set.h"
#include "floe/spec/table_properties.h"
#include "floe/util/uuid.h"
#include "floe/write/deletion_vector_writer.h"
#include "write_internal.h"

namespace floe {

namespace tp = table_properties;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Result<DeleteGranularity> parse_granularity(std::string_view text) {
  std::string v = lower(std::string(text));
  if (v == "file") return DeleteGranularity::kFile;
  if (v == "partition") return DeleteGranularity::kPartition;
  return invalid_argument("table property {}={}: expected file or partition",
                          tp::kDeleteGranularity, text);
}

// Deletes files a failed or aborted write left; a file already gone is no error.
Status delete_all(FileIO& io, std::vector<std::string>* paths) {
  Status first = Status::OK();
  for (const auto& p : *paths) {
    Status s = io.delete_file(p);
    if (!s.ok() && s.kind() != ErrorKind::kNotFound && first.ok()) first = s;
  }
  paths->clear();
  return first;
}

constexpr int64_t kRowsPerSlice = 1 << 16;

}  // namespace

std::string_view to_string(DeleteGranularity g) {
  return g == DeleteGranularity::kFile ? "file" : "partition";
}

Result<DeleteGranularity> delete_granularity_of(const std::map<std::string, std::string>& props) {
  auto it = props.find(std::string(tp::kDeleteGranularity));
  return parse_granularity(it == props.end() ? tp::kDeleteGranularityDefault : it->second);
}

// ---------------------------------------------------------------------------------------------

Result<std::unique_ptr<PositionDeleteFanout>> PositionDeleteFanout::make(
    FileIOPtr io, const TableMetadata& table, std::optional<WriteOptions> options,
    std::optional<DeleteGranularity> granularity) {
  auto f = std::unique_ptr<PositionDeleteFanout>(new PositionDeleteFanout());
  f->io_ = std::move(io);
  f->format_version_ = table.format_version;
  f->options_ = options ? std::move(*options) : FLOE_TRY(delete_write_options(table));
  f->options_.format = lower(f->options_.format);
  if (f->options_.data_location.empty()) {
    return invalid_argument("position deletes for {}: the write options have no data location",
                            table.location);
  }
  f->granularity_ = granularity ? *granularity : FLOE_TRY(delete_granularity_of(table.properties));
  for (const auto& spec : table.specs) f->specs_[spec->spec_id()] = spec;
  // One operation id names every file of the write (Java's OutputFileFactory).
  if (f->options_.operation_id.empty()) f->options_.operation_id = random_uuid();
  if (f->format_version_ >= 3) {
    f->puffin_files_ = std::make_unique<OutputFileFactory>(f->options_, ".puffin");
  } else {
    f->files_ = std::make_unique<OutputFileFactory>(f->options_,
                                                    FLOE_TRY(file_extension(f->options_.format)));
  }
  return f;
}

PositionDeleteFanout::~PositionDeleteFanout() = default;

const std::string& PositionDeleteFanout::operation_id() const { return options_.operation_id; }

Status PositionDeleteFanout::add(const DataFile& data_file, std::span<const int64_t> positions) {
  if (closed_) return invalid_argument("position deletes: add after close()");
  const std::string& path = data_file.file_path;
  if (data_file.content != FileContent::kData) {
    return invalid_argument("position deletes: {} is a delete file, not a data file", path);
  }
  auto spec = specs_.find(data_file.spec_id);
  if (spec == specs_.end()) {
    return invalid_argument(
        "position deletes: data file {} has spec id {}, not a spec of the table", path,
        data_file.spec_id);
  }
  if (data_file.partition.size() != spec->second->fields().size()) {
    return invalid_argument(
        "position deletes: data file {} has {} partition values, its spec {} has {} fields", path,
        data_file.partition.size(), data_file.spec_id, spec->second->fields().size());
  }
  const int64_t limit = format_version_ >= 3 ? kMaxDeletionVectorPosition : INT64_MAX;
  for (int64_t p : positions) {
    if (p < 0 || p > limit || (data_file.record_count > 0 && p >= data_file.record_count)) {
      return invalid_argument("position deletes: position {} is not a row of {} ({} rows)", p, path,
                              data_file.record_count);
    }
  }
  auto it = by_path_.find(path);
  if (it == by_path_.end()) {
    DataFileDeletes d;
    d.spec_id = data_file.spec_id;
    d.partition = data_file.partition;
    d.partition_key = partition_key(data_file.partition);
    d.record_count = data_file.record_count;
    it = by_path_.emplace(path, std::move(d)).first;
  } else if (it->second.spec_id != data_file.spec_id ||
             it->second.partition != data_file.partition) {
    return invalid_argument("position deletes: {} was added before with another spec or partition",
                            path);
  }
  it->second.positions.insert(it->second.positions.end(), positions.begin(), positions.end());
  return Status::OK();
}

Status PositionDeleteFanout::set_existing_dv(const std::string& data_file_path,
                                             const DataFile& dv) {
  if (closed_) return invalid_argument("position deletes: set_existing_dv after close()");
  if (format_version_ < 3) {
    return invalid_argument(
        "existing deletion vector {} for {}: a v{} table has no deletion vectors", dv.file_path,
        data_file_path, format_version_);
  }
  if (dv.content != FileContent::kPositionDeletes || lower(dv.file_format) != "puffin" ||
      !dv.content_offset || !dv.content_size_in_bytes) {
    return invalid_argument(
        "existing deletion vector for {}: {} is not a deletion vector (a PUFFIN position-delete "
        "entry with content_offset and content_size_in_bytes)",
        data_file_path, dv.file_path);
  }
  if (dv.referenced_data_file && *dv.referenced_data_file != data_file_path) {
    return invalid_argument("existing deletion vector in {} references {}, not {}", dv.file_path,
                            *dv.referenced_data_file, data_file_path);
  }
  auto [it, inserted] = existing_dvs_.emplace(data_file_path, dv);
  if (!inserted && !(it->second == dv)) {
    return invalid_argument("data file {} has two deletion vectors ({} at {} and {} at {})",
                            data_file_path, it->second.file_path, *it->second.content_offset,
                            dv.file_path, *dv.content_offset);
  }
  return Status::OK();
}

Result<std::vector<int64_t>> PositionDeleteFanout::existing_positions(const std::string& path,
                                                                      const DataFile& dv,
                                                                      int64_t record_count) const {
  std::string what = fmt::format("deletion vector for {} in {}", path, dv.file_path);
  std::string blob = FLOE_TRY_CTX(
      io_->read_range(dv.file_path, *dv.content_offset, *dv.content_size_in_bytes), what);
  PositionDeleteSet set = FLOE_TRY(parse_deletion_vector(
      blob, what, record_count > 0 ? record_count : std::numeric_limits<int64_t>::max()));
  if (static_cast<int64_t>(set.cardinality()) != dv.record_count) {
    return invalid_data("{}: holds {} positions, its record_count says {}", what, set.cardinality(),
                        dv.record_count);
  }
  return set.positions();
}

Result<PositionDeleteFanout::Written> PositionDeleteFanout::close() {
  if (closed_) return invalid_argument("position deletes: closed twice");
  closed_ = true;
  for (auto& [path, d] : by_path_) {
    std::sort(d.positions.begin(), d.positions.end());
    d.positions.erase(std::unique(d.positions.begin(), d.positions.end()), d.positions.end());
  }
  Written out;
  Status s = format_version_ >= 3 ? write_deletion_vectors(&out) : write_position_files(&out);
  if (!s.ok()) {
    (void)delete_all(*io_, &written_);
    return s;
  }
  return out;
}

Status PositionDeleteFanout::write_group(
    const std::vector<const std::pair<const std::string, DataFileDeletes>*>& group,
    std::vector<DataFile>* out) {
  const DataFileDeletes& first = group.front()->second;
  const PartitionSpec& spec = *specs_.at(first.spec_id);
  const std::string partition_path =
      spec.is_unpartitioned() ? std::string() : spec.partition_to_path(first.partition);
  std::unique_ptr<PositionDeleteAppender> file;
  auto finish = [&]() -> Status {
    auto f = std::move(file);
    DataFile d = FLOE_TRY(f->close(first.spec_id, first.partition));
    written_.push_back(d.file_path);
    out->push_back(std::move(d));
    return Status::OK();
  };
  for (const auto* entry : group) {
    std::span<const int64_t> positions = entry->second.positions;
    while (!positions.empty()) {
      if (!file) {
        file = FLOE_TRY(PositionDeleteAppender::open(
            io_, files_->next_path(partition_path, "deletes"), options_));
      }
      size_t n = std::min<size_t>(positions.size(), kRowsPerSlice);
      FLOE_TRY(file->write(entry->first, positions.first(n)));
      positions = positions.subspan(n);
      if (file->estimated_size() >= options_.target_file_size) FLOE_TRY(finish());
    }
  }
  if (file) FLOE_TRY(finish());
  return Status::OK();
}

Status PositionDeleteFanout::write_position_files(Written* out) {
  using Entry = const std::pair<const std::string, DataFileDeletes>;
  if (granularity_ == DeleteGranularity::kFile) {
    for (Entry& e : by_path_) {
      if (!e.second.positions.empty()) FLOE_TRY(write_group({&e}, &out->delete_files));
    }
    return Status::OK();
  }
  // One file (rolling) per spec and partition, its data files in path order.
  std::map<std::pair<int32_t, std::string>, std::vector<Entry*>> groups;
  for (Entry& e : by_path_) {
    if (!e.second.positions.empty()) {
      groups[{e.second.spec_id, e.second.partition_key}].push_back(&e);
    }
  }
  for (const auto& [key, group] : groups) FLOE_TRY(write_group(group, &out->delete_files));
  return Status::OK();
}

Status PositionDeleteFanout::write_deletion_vectors(Written* out) {
  DeletionVectorWriter dvs(io_, puffin_files_->next_path("", "deletes"));
  for (auto& [path, d] : by_path_) {
    if (d.positions.empty()) continue;
    auto existing = existing_dvs_.find(path);
    if (existing != existing_dvs_.end()) {
      std::vector<int64_t> old =
          FLOE_TRY(existing_positions(path, existing->second, d.record_count));
      std::vector<int64_t> merged;
      merged.reserve(old.size() + d.positions.size());
      std::set_union(old.begin(), old.end(), d.positions.begin(), d.positions.end(),
                     std::back_inserter(merged));
      d.positions = std::move(merged);
      out->replaced_dvs.push_back(existing->second);
    }
    FLOE_TRY(dvs.add(path, d.spec_id, d.partition, d.positions));
  }
  out->delete_files = FLOE_TRY(dvs.close());
  if (!out->delete_files.empty()) written_.push_back(dvs.path());
  return Status::OK();
}

Status PositionDeleteFanout::abort() {
  closed_ = true;
  by_path_.clear();
  return delete_all(*io_, &written_);
}

// ---------------------------------------------------------------------------------------------

Result<std::unique_ptr<EqualityDeleteFanout>> EqualityDeleteFanout::make(
    FileIOPtr io, const TableMetadata& table, std::shared_ptr<const Schema> delete_schema,
    std::vector<int32_t> equality_ids, std::optional<WriteOptions> options) {
  const Schema* schema = table.schema();
  const PartitionSpec* spec = table.spec();
  if (!schema || !spec) {
    return invalid_argument("table {} has no current schema or default spec", table.location);
  }
  const std::string what = fmt::format("equality deletes for {}", table.location);
  for (const auto& f : delete_schema->fields()) {
    const NestedField* t = schema->find_field(f.id);
    if (!t || !t->type->equals(*f.type)) {
      return invalid_argument(
          "{}: delete column {} (id {}, {}) is not a column of the table schema", what, f.name,
          f.id, f.type->to_string());
    }
  }
  FLOE_TRY(check_equality_ids(*delete_schema, equality_ids, what));
  for (const auto& pf : spec->fields()) {
    if (!delete_schema->find_field(pf.source_id)) {
      return invalid_argument(
          "{}: the delete rows lack column {} (id {}), the source of partition field {}", what,
          schema->find_column_name(pf.source_id).value_or("?"), pf.source_id, pf.name);
    }
  }
  FLOE_TRY_CTX(spec->partition_type(*delete_schema), what);
  auto w = std::unique_ptr<EqualityDeleteFanout>(new EqualityDeleteFanout());
  w->io_ = std::move(io);
  w->schema_ = std::move(delete_schema);
  w->spec_ = std::make_shared<PartitionSpec>(*spec);
  w->equality_ids_ = std::move(equality_ids);
  w->options_ = options ? std::move(*options) : FLOE_TRY(delete_write_options(table));
  w->options_.format = lower(w->options_.format);
  if (w->options_.data_location.empty()) {
    return invalid_argument("{}: the write options have no data location", what);
  }
  if (w->options_.operation_id.empty()) w->options_.operation_id = random_uuid();
  w->files_ = std::make_unique<OutputFileFactory>(w->options_,
                                                  FLOE_TRY(file_extension(w->options_.format)));
  return w;
}

EqualityDeleteFanout::~EqualityDeleteFanout() = default;

Status EqualityDeleteFanout::write_rows(Partition& p, const ColumnBatch& rows) {
  if (!p.open) {
    p.open =
        FLOE_TRY(EqualityDeleteWriter::open(io_, files_->next_path(p.path, "deletes"), schema_,
                                            equality_ids_, options_, spec_->spec_id(), p.values));
  }
  FLOE_TRY(p.open->write(rows));
  if (p.open->estimated_size() >= options_.target_file_size) {
    auto w = std::move(p.open);
    DataFile f = FLOE_TRY(w->close());
    written_.push_back(f.file_path);
    done_.push_back(std::move(f));
  }
  return Status::OK();
}

Status EqualityDeleteFanout::write(const ColumnBatch& batch) {
  const std::string& where = options_.data_location;
  if (closed_) return invalid_argument("equality deletes to {}: write after close()", where);
  const auto& fields = schema_->fields();
  if (batch.columns.size() != fields.size()) {
    return invalid_argument("equality deletes to {}: batch has {} columns, the delete schema {}",
                            where, batch.columns.size(), fields.size());
  }
  for (size_t c = 0; c < fields.size(); ++c) {
    const ColumnVector& col = *batch.columns[c];
    if (!col.type()->equals(*fields[c].type)) {
      return invalid_argument("equality deletes to {}: column {} is {}, the delete schema says {}",
                              where, fields[c].name, col.type()->to_string(),
                              fields[c].type->to_string());
    }
    if (col.length() != batch.num_rows) {
      return invalid_argument("equality deletes to {}: column {} has {} rows, the batch {}", where,
                              fields[c].name, col.length(), batch.num_rows);
    }
    if (fields[c].required && col.null_count() > 0) {
      return invalid_argument("equality deletes to {}: required column {} has {} null(s)", where,
                              fields[c].name, col.null_count());
    }
  }
  if (batch.num_rows == 0) return Status::OK();
  auto partition_for = [&](const std::vector<Literal>& values) -> Partition& {
    std::string key = partition_key(values);
    auto it = partitions_.find(key);
    if (it == partitions_.end()) {
      Partition p;
      p.values = values;
      p.path = spec_->is_unpartitioned() ? std::string() : spec_->partition_to_path(values);
      it = partitions_.emplace(key, std::move(p)).first;
    }
    return it->second;
  };
  if (spec_->fields().empty()) {
    FLOE_TRY(write_rows(partition_for({}), batch));
  } else {
    auto groups = FLOE_TRY(group_by_partition(*spec_, *schema_, batch));
    for (const auto& g : groups) {
      Partition& p = partition_for(g.partition);
      if (groups.size() == 1) {
        FLOE_TRY(write_rows(p, batch));
      } else {
        FLOE_TRY(write_rows(p, gather(batch, g.rows)));
      }
    }
  }
  rows_ += batch.num_rows;
  return Status::OK();
}

Result<std::vector<DataFile>> EqualityDeleteFanout::close() {
  if (closed_) return invalid_argument("equality deletes: closed twice");
  closed_ = true;
  for (auto& [key, p] : partitions_) {
    if (!p.open) continue;
    auto w = std::move(p.open);
    auto f = w->close();
    if (!f.ok()) {
      (void)abort();
      return f.status();
    }
    written_.push_back(f->file_path);
    done_.push_back(std::move(*f));
  }
  return done_;
}

Status EqualityDeleteFanout::abort() {
  closed_ = true;
  partitions_.clear();  // open writers have written nothing yet
  done_.clear();
  return delete_all(*io_, &written_);
}

}  // namespace floe
