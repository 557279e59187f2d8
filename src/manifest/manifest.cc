#include "floe/manifest/manifest.h"

#include "floe/spec/type.h"

namespace floe {

const char* manifest_content_name(ManifestContent c) {
  return c == ManifestContent::kDeletes ? "deletes" : "data";
}

const char* entry_status_name(ManifestEntryStatus s) {
  switch (s) {
    case ManifestEntryStatus::kExisting:
      return "EXISTING";
    case ManifestEntryStatus::kAdded:
      return "ADDED";
    case ManifestEntryStatus::kDeleted:
      return "DELETED";
  }
  return "?";
}

const char* file_content_name(FileContent c) {
  switch (c) {
    case FileContent::kData:
      return "DATA";
    case FileContent::kPositionDeletes:
      return "POSITION_DELETES";
    case FileContent::kEqualityDeletes:
      return "EQUALITY_DELETES";
  }
  return "?";
}

namespace {
std::optional<Literal> decode_bound(const ColumnMetrics<std::string>& m, int32_t id,
                                    const TypePtr& type) {
  const std::string* b = find_metric(m, id);
  if (b == nullptr || !type) return std::nullopt;
  auto lit = Literal::from_bytes(type, *b);
  if (!lit.ok()) return std::nullopt;
  return std::move(lit).value();
}
}  // namespace

std::optional<Literal> DataFile::lower_bound(int32_t field_id, const TypePtr& type) const {
  return decode_bound(lower_bounds, field_id, type);
}

std::optional<Literal> DataFile::upper_bound(int32_t field_id, const TypePtr& type) const {
  return decode_bound(upper_bounds, field_id, type);
}

void DataFile::clear() {
  content = FileContent::kData;
  file_path.clear();
  file_format.clear();
  record_count = 0;
  file_size_in_bytes = 0;
  column_sizes.clear();
  value_counts.clear();
  null_value_counts.clear();
  nan_value_counts.clear();
  lower_bounds.clear();
  upper_bounds.clear();
  key_metadata.reset();
  if (split_offsets) split_offsets->clear();
  split_offsets.reset();
  equality_ids.reset();
  sort_order_id.reset();
  first_row_id.reset();
  referenced_data_file.reset();
  content_offset.reset();
  content_size_in_bytes.reset();
}

}  // namespace floe
