#include "floe/read/position_delete_file.h"

#include <vector>

#include "floe/format/avro/data_reader.h"
#include "floe/format/parquet/key_run_reader.h"
#include "floe/format/parquet/reader.h"
#include "floe/scan/delete_index.h"
#include "floe/util/strings.h"

namespace floe {

namespace {

using parquet::KeyRunReader;

constexpr int32_t kDeleteFilePathId = 2147483546;
constexpr int32_t kDeletePosId = 2147483545;

std::vector<NestedField> delete_fields() {
  std::vector<NestedField> fields(2);
  fields[0].id = kDeleteFilePathId;
  fields[0].name = "file_path";
  fields[0].type = Type::string();
  fields[1].id = kDeletePosId;
  fields[1].name = "pos";
  fields[1].type = Type::int64();
  return fields;
}

// The generic path: rows of decoded batches, grouped by path. Consecutive rows of one path (a
// sorted file's) share one normalization and lookup.
class RowGrouper {
 public:
  RowGrouper(const std::optional<std::string>& target, PositionDeletes* out) : out_(out) {
    if (target) key_ = normalized_path_view(*target);
    filtering_ = target.has_value();
  }

  Status add(const ColumnBatch& b, std::string_view file) {
    int pi = b.find(kDeleteFilePathId), qi = b.find(kDeletePosId);
    if (pi < 0 || qi < 0) {
      return invalid_data("position-delete file {} lacks the file_path/pos columns", file);
    }
    const ColumnVector* paths = b.columns[static_cast<size_t>(pi)].get();
    const ColumnVector* pos = b.columns[static_cast<size_t>(qi)].get();
    for (int64_t i = 0; i < b.num_rows; ++i) {
      if (paths->is_null(i) || pos->is_null(i)) continue;  // tolerated, as Java does
      std::string_view p = paths->bytes_at(i);
      if (!have_last_ || p != last_) {
        last_.assign(p);
        have_last_ = true;
        set_ = nullptr;
        if (!filtering_) {
          set_ = &out_->by_path[normalize_file_path(p)];
        } else if (normalized_path_view(p) == key_) {
          set_ = &out_->by_path[std::string(key_)];
        }
      }
      if (set_) set_->add(pos->raw<int64_t>()[i]);
    }
    return Status::OK();
  }

 private:
  PositionDeletes* out_;
  bool filtering_ = false;
  std::string key_;
  std::string last_;
  bool have_last_ = false;
  PositionDeleteSet* set_ = nullptr;
};

Result<std::unique_ptr<parquet::ParquetReader>> open_parquet(FileIOPtr io, const std::string& path,
                                                             std::optional<int64_t> size) {
  parquet::ReaderOptions ro;
  ro.file_size = size;
  auto opened = parquet::ParquetReader::open(io, path, ro);
  if (!opened.ok() && size && opened.status().kind() == ErrorKind::kInvalidData) {
    ro.file_size.reset();  // the manifest's size may be wrong; ask storage
    opened = parquet::ParquetReader::open(io, path, ro);
  }
  return opened;
}

// The dictionary-aware read of a Parquet position-delete file whose file_path is a flat
// BYTE_ARRAY column and pos a flat long column: the Iceberg side of KeyRunReader's runs.
class RunReader {
 public:
  RunReader(KeyRunReader& keys, const parquet::ParquetReader& file,
            const std::optional<std::string>& target, PositionDeletes* out)
      : keys_(keys), file_(file), target_(target), out_(out) {
    if (target) key_ = normalized_path_view(*target);
    values_ = ColumnVector::make(keys_.value_type());
    max_def_ = keys_.value_max_def();
  }

  Status read() {
    const auto& groups = file_.metadata().row_groups;
    for (size_t g = 0; g < groups.size(); ++g) FLOE_TRY(read_group(static_cast<int>(g)));
    return Status::OK();
  }

 private:
  Status read_group(int g) {
    FLOE_TRY(keys_.check_row_counts(g));
    if (target_) {
      auto bounds = keys_.key_bounds(g);
      if (bounds && !path_bounds_may_match(*target_, bounds->first, bounds->second)) {
        ++out_->row_groups_skipped;
        return Status::OK();
      }
    }
    ++out_->row_groups_read;
    FLOE_TRY(keys_.start_row_group(g));
    if (!target_ && max_def_ == 0) FLOE_TRY(reserve_sets());
    int64_t pending_skip = 0;  // pos rows of unkept paths not yet passed over
    while (true) {
      int64_t rows = 0;
      FLOE_TRY(keys_.next_runs(&runs_, &rows));
      if (rows == 0) return Status::OK();
      if (keys_.dictionary_generation() != generation_) load_dictionary();
      if (!target_) {
        // Every path is kept: the page's positions in one decode, then handed out by run.
        values_->clear();
        FLOE_TRY(keys_.next_values(rows, values_.get(), &defs_));
        int64_t row = 0, value = 0;
        for (const auto& run : runs_) {
          add_run(run, row, &value);
          row += run.rows;
        }
        continue;
      }
      for (const auto& run : runs_) {
        if (!kept(run.code)) {
          pending_skip += run.rows;
          continue;
        }
        if (pending_skip > 0) {
          FLOE_TRY(keys_.skip_values(pending_skip));
          pending_skip = 0;
        }
        values_->clear();
        FLOE_TRY(keys_.next_values(run.rows, values_.get(), &defs_));
        int64_t value = 0;
        add_run(run, 0, &value);
      }
    }
  }

  // Sizes the sets of the row group's dictionary-encoded paths before any position is added:
  // a first pass over the (cheap) path runs counts them, so each set's memory is touched once
  // instead of being regrown and copied. Every row adds a position when pos has no nulls.
  Status reserve_sets() {
    int64_t rows = 0;
    while (true) {
      FLOE_TRY(keys_.next_runs(&runs_, &rows));
      if (rows == 0) break;
      if (keys_.dictionary_generation() != generation_) {
        load_dictionary();
        counts_.assign(slots_.size(), 0);
      }
      for (const auto& run : runs_) {
        if (run.code < counts_.size()) counts_[run.code] += run.rows;
      }
    }
    for (size_t code = 0; code < counts_.size(); ++code) {
      if (counts_[code] > 0) set_of(static_cast<uint32_t>(code))->reserve_more(counts_[code]);
    }
    counts_.clear();
    return keys_.restart_keys();
  }

  // A new dictionary: its entries are normalized (or compared with the target) lazily, once.
  void load_dictionary() {
    generation_ = keys_.dictionary_generation();
    if (generation_ == 0) return;  // no dictionary yet: every page is in another encoding
    const ColumnVector& dict = keys_.dictionary();
    slots_.assign(static_cast<size_t>(dict.length()), nullptr);
    if (target_) {
      match_.resize(static_cast<size_t>(dict.length()));
      for (int64_t i = 0; i < dict.length(); ++i) {
        match_[static_cast<size_t>(i)] = normalized_path_view(dict.bytes_at(i)) == key_;
      }
    }
  }

  bool kept(uint32_t code) const {
    if (code == KeyRunReader::kNull) return false;
    if (code & KeyRunReader::kPlain) return normalized_path_view(keys_.plain_key(code)) == key_;
    return match_[code];
  }

  // The set a run's path goes to (created on its first position).
  PositionDeleteSet* set_of(uint32_t code) {
    if (code & KeyRunReader::kPlain) {
      std::string_view key = normalized_path_view(keys_.plain_key(code));
      if (!plain_set_ || key != plain_key_) {
        plain_key_.assign(key);
        plain_set_ = &out_->by_path[plain_key_];
      }
      return plain_set_;
    }
    PositionDeleteSet*& slot = slots_[code];
    if (!slot) slot = &out_->by_path[normalize_file_path(keys_.dictionary().bytes_at(code))];
    return slot;
  }

  // Adds the positions of a run whose rows start at `row` of values_/defs_ (*value: its first
  // dense value, advanced past the run). Null paths and null positions are skipped.
  void add_run(const KeyRunReader::Run& run, int64_t row, int64_t* value) {
    const int64_t* v = values_->raw<int64_t>();
    if (defs_.empty()) {  // pos has no nulls: the run's values are contiguous
      if (run.code != KeyRunReader::kNull) set_of(run.code)->add_many(v + *value, run.rows);
      *value += run.rows;
      return;
    }
    const int16_t max_def = max_def_;
    PositionDeleteSet* set = nullptr;
    for (int64_t r = row; r < row + run.rows; ++r) {
      if (defs_[static_cast<size_t>(r)] != max_def) continue;
      if (run.code != KeyRunReader::kNull) {
        if (!set) set = set_of(run.code);
        set->add(v[*value]);
      }
      ++*value;
    }
  }

  KeyRunReader& keys_;
  const parquet::ParquetReader& file_;
  const std::optional<std::string>& target_;
  PositionDeletes* out_;
  std::string key_;  // the target's normalized path
  std::vector<KeyRunReader::Run> runs_;
  ColumnPtr values_;
  int16_t max_def_ = 0;  // pos's definition level of a non-null position
  std::vector<int16_t> defs_;
  uint64_t generation_ = ~uint64_t{0};
  std::vector<PositionDeleteSet*> slots_;  // by dictionary index
  std::vector<uint8_t> match_;             // by dictionary index, when filtering
  std::vector<int64_t> counts_;            // by dictionary index, in reserve_sets()
  std::string plain_key_;
  PositionDeleteSet* plain_set_ = nullptr;
};

Status read_parquet(FileIOPtr io, const std::string& path, const PositionDeleteReadOptions& options,
                    PositionDeletes* out) {
  auto reader = FLOE_TRY(open_parquet(io, path, options.file_size));
  if (options.dictionary_runs) {
    auto keys = FLOE_TRY(KeyRunReader::open(*io, *reader, kDeleteFilePathId, kDeletePosId));
    if (keys) {
      out->used_dictionary_runs = true;
      RunReader runs(*keys, *reader, options.data_file, out);
      return runs.read();
    }
  }
  // Any other layout (nested or missing columns, other types): every row, decoded.
  FLOE_TRY(reader->select({kDeleteFilePathId, kDeletePosId}));
  RowGrouper grouper(options.data_file, out);
  out->row_groups_read = reader->num_row_groups();
  while (true) {
    auto b = FLOE_TRY(reader->next_batch());
    if (!b) break;
    FLOE_TRY(grouper.add(*b, path));
  }
  return Status::OK();
}

Status read_avro(FileIOPtr io, const std::string& path, const PositionDeleteReadOptions& options,
                 PositionDeletes* out) {
  auto reader = FLOE_TRY(avro::DataReader::open(io, path, delete_fields(), {}));
  RowGrouper grouper(options.data_file, out);
  while (true) {
    auto b = FLOE_TRY(reader->next_batch());
    if (!b) break;
    FLOE_TRY(grouper.add(*b, path));
  }
  return Status::OK();
}

}  // namespace

bool path_bounds_may_match(std::string_view target, std::string_view lower,
                           std::string_view upper) {
  std::string_view key = normalized_path_view(target);
  // Normalizing yields a suffix of the path, except for a bare "scheme://authority" ("/").
  if (key.empty() || key.data() + key.size() != target.data() + target.size()) return true;
  std::string_view prefix = target.substr(0, target.size() - key.size());
  if (prefix == "file:" || key[0] != '/') return true;
  auto under = [&](std::string_view s) {
    return s.size() > prefix.size() && s.starts_with(prefix) && s[prefix.size()] == '/';
  };
  if (!under(lower) || !under(upper)) return true;
  // std::string_view compares bytes as unsigned, as Parquet orders UTF-8 and binary values.
  return lower <= target && target <= upper;
}

Result<PositionDeletes> read_position_delete_file(FileIOPtr io, const std::string& path,
                                                  std::string_view format,
                                                  const PositionDeleteReadOptions& options) {
  PositionDeletes out;
  std::string f = to_lower(format);
  if (f == "parquet") {
    FLOE_TRY(read_parquet(std::move(io), path, options, &out));
  } else if (f == "avro") {
    FLOE_TRY(read_avro(std::move(io), path, options, &out));
  } else {
    return not_supported("{} delete files are not supported: {}", format, path);
  }
  for (auto& [_, set] : out.by_path) set.finish();
  return out;
}

}  // namespace floe
