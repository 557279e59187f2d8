#include "scan/delete_index.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace floe {

namespace {

// Reserved field id of the `file_path` column of position-delete files.
constexpr int32_t kDeleteFilePathId = 2147483546;

void append_u32(std::string* out, uint32_t v) {
  char b[4];
  std::memcpy(b, &v, 4);
  out->append(b, 4);
}

bool by_sequence(const DeleteFilePtr& a, const DeleteFilePtr& b) {
  return a->data_sequence_number < b->data_sequence_number;
}

// Delete files in `bucket` with sequence number >= seq (inclusive) or > seq (strict).
void collect(const std::vector<DeleteFilePtr>& bucket, int64_t seq, bool strict,
             std::vector<DeleteFilePtr>* out) {
  auto it =
      strict ? std::upper_bound(
                   bucket.begin(), bucket.end(), seq,
                   [](int64_t s, const DeleteFilePtr& d) { return s < d->data_sequence_number; })
             : std::lower_bound(
                   bucket.begin(), bucket.end(), seq,
                   [](const DeleteFilePtr& d, int64_t s) { return d->data_sequence_number < s; });
  out->insert(out->end(), it, bucket.end());
}

}  // namespace

std::string partition_key(int32_t spec_id, const std::vector<Literal>& values) {
  std::string key;
  append_u32(&key, static_cast<uint32_t>(spec_id));
  for (const auto& v : values) {
    if (v.is_null()) {
      key.push_back('\0');
      continue;
    }
    key.push_back('\1');
    std::string bytes;
    TypeId id = v.type() ? v.type()->id() : TypeId::kUnknown;
    if (id == TypeId::kFloat && std::isnan(v.as_float())) {
      bytes = "NaN";  // every NaN is one partition
    } else if (id == TypeId::kDouble && std::isnan(v.as_double())) {
      bytes = "NaN";
    } else {
      auto b = v.to_bytes();
      bytes = b.ok() ? *b : v.to_string();
    }
    append_u32(&key, static_cast<uint32_t>(bytes.size()));
    key += bytes;
  }
  return key;
}

std::string normalize_file_path(std::string_view p) {
  if (p.substr(0, 5) == "file:") return local_path_of(p);
  auto scheme = p.find("://");
  if (scheme != std::string_view::npos && p.substr(0, scheme).find('/') == std::string_view::npos) {
    auto slash = p.find('/', scheme + 3);
    return slash == std::string_view::npos ? std::string("/") : std::string(p.substr(slash));
  }
  return std::string(p);
}

void DeleteFileIndex::add(DeleteFilePtr d, bool unpartitioned_spec) {
  ++count_;
  const DataFile& f = d->file;
  if (f.content == FileContent::kPositionDeletes) {
    if (f.content_offset || (f.file_format == "puffin" || f.file_format == "PUFFIN")) {
      if (f.referenced_data_file) {
        dvs_by_path_[normalize_file_path(*f.referenced_data_file)].push_back(std::move(d));
        return;
      }
    }
    // File-scoped: referenced_data_file, or equal file_path bounds (Java's single-target rule).
    std::optional<std::string> target = f.referenced_data_file;
    if (!target) {
      const std::string* lo = find_metric(f.lower_bounds, kDeleteFilePathId);
      const std::string* hi = find_metric(f.upper_bounds, kDeleteFilePathId);
      if (lo && hi && *lo == *hi) target = *lo;
    }
    if (target) {
      positions_by_path_[normalize_file_path(*target)].push_back(std::move(d));
    } else {
      positions_by_partition_[partition_key(f.spec_id, f.partition)].push_back(std::move(d));
    }
    return;
  }
  if (unpartitioned_spec) {
    global_equality_.push_back(std::move(d));
  } else {
    equality_by_partition_[partition_key(f.spec_id, f.partition)].push_back(std::move(d));
  }
}

void DeleteFileIndex::finish() {
  for (auto* m :
       {&dvs_by_path_, &positions_by_path_, &positions_by_partition_, &equality_by_partition_}) {
    for (auto& [_, bucket] : *m) std::stable_sort(bucket.begin(), bucket.end(), by_sequence);
  }
  std::stable_sort(global_equality_.begin(), global_equality_.end(), by_sequence);
}

std::vector<DeleteFilePtr> DeleteFileIndex::for_data_file(const DataFile& file,
                                                          int64_t data_seq) const {
  std::vector<DeleteFilePtr> out;
  if (count_ == 0) return out;
  std::string path = normalize_file_path(file.file_path);
  std::string key;
  bool have_key = false;
  auto partition = [&]() -> const std::string& {
    if (!have_key) {
      key = partition_key(file.spec_id, file.partition);
      have_key = true;
    }
    return key;
  };

  // A deletion vector replaces every position-delete file for its data file.
  bool has_dv = false;
  if (!dvs_by_path_.empty()) {
    auto it = dvs_by_path_.find(path);
    if (it != dvs_by_path_.end()) {
      std::vector<DeleteFilePtr> dvs;
      collect(it->second, data_seq, false, &dvs);
      if (!dvs.empty()) {
        out.push_back(dvs.back());  // at most one is live; keep the newest
        has_dv = true;
      }
    }
  }
  if (!has_dv) {
    if (!positions_by_path_.empty()) {
      auto it = positions_by_path_.find(path);
      if (it != positions_by_path_.end()) collect(it->second, data_seq, false, &out);
    }
    if (!positions_by_partition_.empty()) {
      auto it = positions_by_partition_.find(partition());
      if (it != positions_by_partition_.end()) collect(it->second, data_seq, false, &out);
    }
  }
  if (!equality_by_partition_.empty()) {
    auto it = equality_by_partition_.find(partition());
    if (it != equality_by_partition_.end()) collect(it->second, data_seq, true, &out);
  }
  collect(global_equality_, data_seq, true, &out);
  return out;
}

}  // namespace floe
