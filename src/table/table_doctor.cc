// The planning doctor (floe/table/table_doctor.h): reads the current snapshot's manifest list
// (counts, partition summaries, lengths), plans a full scan (the manifests: files, partitions,
// sizes and the delete files each data file gets, as a reader would), and for orphans lists the
// table location through remove_orphan_files' dry run.
#include "floe/table/table_doctor.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/spec/metrics_config.h"
#include "floe/spec/table_properties.h"
#include "floe/table/remove_orphan_files.h"
#include "table/table_internal.h"

namespace floe {

bool DoctorReport::passed() const {
  return std::none_of(findings.begin(), findings.end(),
                      [](const DoctorFinding& f) { return f.crossed; });
}

namespace {

using namespace table_properties;

std::string file_name(std::string_view path) {
  auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string pct(double share) { return fmt::format("{:.0f}%", share * 100); }

std::string mb(int64_t bytes) { return fmt::format("{:.1f} MB", bytes / 1e6); }

// Days between two partition bounds of `field` (single-value binary form), or nullopt when the
// field is not a time partition (a day, hour, month or year transform, or identity on a date or
// timestamp).
std::optional<double> range_days(const PartitionField& field, const Schema& schema,
                                 const PartitionFieldSummary& summary) {
  if (!summary.lower_bound || !summary.upper_bound) return std::nullopt;
  auto int_of = [](const std::string& b) -> std::optional<int64_t> {
    if (b.size() == 4) {
      int32_t v;
      std::memcpy(&v, b.data(), 4);
      return v;
    }
    if (b.size() == 8) {
      int64_t v;
      std::memcpy(&v, b.data(), 8);
      return v;
    }
    return std::nullopt;
  };
  auto lo = int_of(*summary.lower_bound), hi = int_of(*summary.upper_bound);
  if (!lo || !hi) return std::nullopt;
  const double diff = static_cast<double>(*hi) - static_cast<double>(*lo);
  switch (field.transform.kind()) {
    case Transform::Kind::kDay:
      return diff;
    case Transform::Kind::kHour:
      return diff / 24;
    case Transform::Kind::kMonth:
      return diff * 30.44;
    case Transform::Kind::kYear:
      return diff * 365.25;
    case Transform::Kind::kIdentity: {
      const NestedField* source = schema.find_field(field.source_id);
      if (!source) return std::nullopt;
      switch (source->type->id()) {
        case TypeId::kDate:
          return diff;
        case TypeId::kTimestamp:
        case TypeId::kTimestampTz:
          return diff / 86400e6;
        case TypeId::kTimestampNs:
        case TypeId::kTimestampTzNs:
          return diff / 86400e9;
        default:
          return std::nullopt;
      }
    }
    default:
      return std::nullopt;
  }
}

int count_primitive_columns(const std::vector<NestedField>& fields) {
  int n = 0;
  for (const auto& f : fields) {
    n += f.type->is_primitive() ? 1 : count_primitive_columns(f.type->fields());
  }
  return n;
}

std::string partition_text(const TableMetadata& m, const DataFile& file) {
  const PartitionSpec* spec = m.spec_by_id(file.spec_id);
  std::string out = fmt::format("spec {} ", file.spec_id);
  if (!spec || spec->fields().empty()) return out + "(unpartitioned)";
  std::vector<std::string> parts;
  for (size_t i = 0; i < spec->fields().size() && i < file.partition.size(); ++i) {
    parts.push_back(spec->fields()[i].name + "=" + file.partition[i].to_string());
  }
  return out + "(" + fmt::format("{}", fmt::join(parts, ", ")) + ")";
}

struct Context {
  Table& table;
  const DoctorOptions& options;
  std::shared_ptr<const TableMetadata> metadata;
  std::string name;
  DoctorReport& report;
};

void check_manifest_list(Context& c, const std::vector<ManifestFile>& manifests) {
  const TableMetadata& m = *c.metadata;
  const Schema* schema = m.schema();
  struct Worst {
    double value;
    std::string text;
  };
  std::vector<Worst> by_deleted, by_range;
  int64_t data_manifests = 0, entries = 0, bytes = 0, live_files = 0;
  for (const auto& mf : manifests) {
    if (mf.content != ManifestContent::kData) continue;
    ++data_manifests;
    const int64_t added = mf.added_files_count.value_or(0),
                  existing = mf.existing_files_count.value_or(0),
                  deleted = mf.deleted_files_count.value_or(0);
    const int64_t total = added + existing + deleted;
    entries += total;
    bytes += mf.manifest_length;
    live_files += added + existing;
    if (total == 0) continue;
    const double ratio = static_cast<double>(deleted) / static_cast<double>(total);
    if (ratio >= c.options.deleted_ratio) {
      by_deleted.push_back({ratio, fmt::format("{}: {} DELETED of {} entries",
                                               file_name(mf.manifest_path), pct(ratio), total)});
    }
    const PartitionSpec* spec = m.spec_by_id(mf.partition_spec_id);
    if (!spec || !schema || !mf.partitions) continue;
    for (size_t i = 0; i < spec->fields().size() && i < mf.partitions->size(); ++i) {
      auto days = range_days(spec->fields()[i], *schema, (*mf.partitions)[i]);
      if (days && *days >= static_cast<double>(c.options.partition_range_days)) {
        by_range.push_back(
            {*days, fmt::format("{}: {} spans {:.0f} days, {} files", file_name(mf.manifest_path),
                                spec->fields()[i].name, *days, total)});
        break;
      }
    }
  }
  auto top = [](std::vector<Worst>& v) {
    std::stable_sort(v.begin(), v.end(),
                     [](const Worst& a, const Worst& b) { return a.value > b.value; });
    std::vector<std::string> out;
    for (size_t i = 0; i < v.size() && i < 5; ++i) out.push_back(v[i].text);
    return out;
  };
  const std::string call_rewrite_manifests =
      fmt::format("CALL system.rewrite_manifests(table => '{}')", c.name);

  DoctorFinding deleted;
  deleted.check = "deleted-entries";
  deleted.crossed = !by_deleted.empty();
  deleted.summary = fmt::format(
      "{} of {} data manifests have {} or more DELETED entries (planning reads them for nothing)",
      by_deleted.size(), data_manifests, pct(c.options.deleted_ratio));
  deleted.details = top(by_deleted);
  if (deleted.crossed) deleted.fix = call_rewrite_manifests;
  deleted.numbers = {{"manifests_over_threshold", static_cast<double>(by_deleted.size())},
                     {"data_manifests", static_cast<double>(data_manifests)}};
  c.report.findings.push_back(std::move(deleted));

  // One manifest is read whatever its range: the range matters once pruning could skip some.
  DoctorFinding range;
  range.check = "partition-range";
  const bool several = data_manifests >= 2;
  range.crossed = several && !by_range.empty();
  range.summary =
      several ? fmt::format(
                    "{} of {} data manifests span {} days or more of a time partition (manifest "
                    "pruning on it cannot skip them)",
                    by_range.size(), data_manifests, c.options.partition_range_days)
              : fmt::format("{} data manifest: nothing to prune between manifests", data_manifests);
  if (range.crossed) {
    range.details = top(by_range);
    range.fix = call_rewrite_manifests + " (it clusters entries by partition)";
  }
  range.numbers = {
      {"manifests_over_threshold", several ? static_cast<double>(by_range.size()) : 0}};
  c.report.findings.push_back(std::move(range));

  // Manifest bytes per entry against the columns that carry metrics. Each manifest starts with
  // a header (the schema and spec as JSON) whatever its entries: the header of the manifest with
  // the most entries, read once, is taken off every manifest's length.
  DoctorFinding size;
  size.check = "manifest-size";
  int64_t header = 0;
  const ManifestFile* largest = nullptr;
  for (const auto& mf : manifests) {
    if (mf.content != ManifestContent::kData) continue;
    if (!largest || mf.added_files_count.value_or(0) + mf.existing_files_count.value_or(0) +
                            mf.deleted_files_count.value_or(0) >
                        largest->added_files_count.value_or(0) +
                            largest->existing_files_count.value_or(0) +
                            largest->deleted_files_count.value_or(0)) {
      largest = &mf;
    }
  }
  if (largest) {
    ManifestReadOptions ro;
    ro.read_stats = false;
    auto reader = ManifestReader::open(*c.table.io(), *largest, &m, ro);
    if (reader.ok()) {
      header = 4 + 16;  // magic and sync marker
      for (const auto& [k, v] : (*reader)->info().metadata) {
        header += static_cast<int64_t>(k.size() + v.size()) + 4;
      }
      c.report.io_requests += 1;
    }
  }
  const int64_t entry_bytes = std::max<int64_t>(0, bytes - header * data_manifests);
  const double per_entry = entries > 0 ? static_cast<double>(entry_bytes) / entries : 0;
  const int columns = schema ? count_primitive_columns(schema->fields()) : 0;
  std::string default_mode = "truncate(16)";
  if (schema) {
    auto config = MetricsConfig::from_properties(m.properties, *schema);
    if (config.ok()) default_mode = config->default_mode.to_string();
  }
  size.crossed = per_entry > static_cast<double>(c.options.max_entry_bytes);
  size.summary = fmt::format(
      "{:.0f} bytes per manifest entry ({} in {} entries, headers of about {} bytes aside); {} "
      "columns, metrics default {}",
      per_entry, mb(bytes), entries, header, columns, default_mode);
  if (size.crossed) {
    size.fix = fmt::format(
        "ALTER TABLE {} SET TBLPROPERTIES ('write.metadata.metrics.default' = 'none', "
        "'write.metadata.metrics.column.<col>' = 'full' for the columns queries filter on); "
        "then {}",
        c.name, call_rewrite_manifests);
  }
  size.numbers = {{"bytes_per_entry", per_entry},
                  {"manifest_bytes", static_cast<double>(bytes)},
                  {"columns", static_cast<double>(columns)}};
  c.report.findings.push_back(std::move(size));

  DoctorFinding count;
  count.check = "manifest-count";
  const double files_per_manifest =
      data_manifests > 0 ? static_cast<double>(live_files) / data_manifests : 0;
  const bool merge =
      bool_property(m.properties, kManifestMergeEnabled, kManifestMergeEnabledDefault);
  const int64_t min_merge =
      int_property(m.properties, kManifestMinMergeCount, kManifestMinMergeCountDefault);
  count.crossed = data_manifests >= c.options.min_manifests &&
                  files_per_manifest < c.options.min_files_per_manifest;
  count.summary = fmt::format(
      "{} data manifests for {} data files ({:.1f} files per manifest); manifest merging {}",
      data_manifests, live_files, files_per_manifest,
      merge ? fmt::format("on (from {} manifests)", min_merge) : std::string("off"));
  if (count.crossed) {
    count.fix = call_rewrite_manifests;
    if (!merge) {
      count.fix += fmt::format(
          "; and ALTER TABLE {} SET TBLPROPERTIES ('commit.manifest-merge.enabled' = 'true')",
          c.name);
    }
  }
  count.numbers = {{"data_manifests", static_cast<double>(data_manifests)},
                   {"data_files", static_cast<double>(live_files)},
                   {"files_per_manifest", files_per_manifest}};
  c.report.findings.push_back(std::move(count));
}

Status check_files(Context& c) {
  const TableMetadata& m = *c.metadata;
  ScanOptions so;
  so.threads = c.options.threads;
  TableScan scan = FLOE_TRY(c.table.new_scan(so));
  struct Partition {
    std::string text;
    std::set<std::string> deletes;
    int64_t small_files = 0;
  };
  std::map<std::string, Partition> partitions;  // by spec id and partition values
  struct SpecUse {
    int64_t files = 0;
    int64_t bytes = 0;
  };
  std::map<int32_t, SpecUse> specs;
  const int64_t target =
      int_property(m.properties, kTargetFileSizeBytes, kTargetFileSizeBytesDefault);
  const auto small_below =
      static_cast<int64_t>(static_cast<double>(target) * c.options.small_file_ratio);
  int64_t data_files = 0, delete_refs = 0, total_bytes = 0;
  FLOE_TRY(scan.plan_files([&](FileScanTask&& task) {
    const DataFile& f = *task.file;
    std::string key = partition_text(m, f);
    Partition& p = partitions[key];
    if (p.text.empty()) p.text = key;
    for (const auto& d : task.deletes) p.deletes.insert(std::string(d->file_path()));
    if (f.file_size_in_bytes < small_below) p.small_files++;
    SpecUse& s = specs[f.spec_id];
    s.files++;
    s.bytes += f.file_size_in_bytes;
    total_bytes += f.file_size_in_bytes;
    data_files++;
    delete_refs += static_cast<int64_t>(task.deletes.size());
    return true;
  }));
  const ScanReport& r = scan.report();
  c.report.manifests_read += r.scanned_data_manifests + r.scanned_delete_manifests;
  c.report.io_requests += r.io_requests;

  // Deletes: the merge-on-read alert.
  DoctorFinding deletes;
  deletes.check = "deletes";
  const double avg = data_files > 0 ? static_cast<double>(delete_refs) / data_files : 0;
  int64_t worst = 0;
  std::string worst_text;
  std::vector<std::pair<int64_t, std::string>> by_partition;
  for (const auto& [key, p] : partitions) {
    auto n = static_cast<int64_t>(p.deletes.size());
    if (n > 0) by_partition.emplace_back(n, p.text);
    if (n > worst) {
      worst = n;
      worst_text = p.text;
    }
  }
  const int64_t dangling = std::max<int64_t>(0, r.total_delete_files - r.matched_delete_files);
  deletes.crossed =
      avg > c.options.max_deletes_per_file || worst > c.options.max_delete_files_per_partition;
  deletes.summary = fmt::format(
      "{} live delete files; {:.2f} delete files apply to a data file on average; at most {} in "
      "one partition{}{}",
      r.total_delete_files, avg, worst, worst_text.empty() ? "" : " (" + worst_text + ")",
      dangling > 0 ? fmt::format("; {} apply to no live data file", dangling) : "");
  std::stable_sort(by_partition.begin(), by_partition.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; i < by_partition.size() && i < 5; ++i) {
    deletes.details.push_back(
        fmt::format("{}: {} delete files", by_partition[i].second, by_partition[i].first));
  }
  if (deletes.crossed || dangling > 0) {
    deletes.fix = fmt::format(
        "CALL system.rewrite_data_files(table => '{}', options => map('delete-file-threshold', "
        "'1')) applies them and drops them; CALL system.rewrite_position_delete_files(table => "
        "'{}') merges small delete files",
        c.name, c.name);
  }
  deletes.numbers = {{"delete_files", static_cast<double>(r.total_delete_files)},
                     {"avg_deletes_per_data_file", avg},
                     {"max_delete_files_per_partition", static_cast<double>(worst)},
                     {"dangling_delete_files", static_cast<double>(dangling)}};
  c.report.findings.push_back(std::move(deletes));

  // Specs in use: informational (per-spec planning works; a rewrite normalises old specs).
  DoctorFinding spec_use;
  spec_use.check = "specs";
  std::vector<std::string> uses;
  bool old_specs = false;
  for (const auto& [id, s] : specs) {
    const PartitionSpec* spec = m.spec_by_id(id);
    std::string fields;
    if (spec) {
      std::vector<std::string> names;
      for (const auto& f : spec->fields()) names.push_back(f.transform.to_string() + " " + f.name);
      fields = names.empty() ? "unpartitioned" : fmt::format("{}", fmt::join(names, ", "));
    }
    old_specs |= id != m.default_spec_id;
    uses.push_back(fmt::format(
        "spec {}{} [{}]: {} files, {} of the bytes", id,
        id == m.default_spec_id ? " (current)" : "", fields, s.files,
        pct(total_bytes > 0 ? static_cast<double>(s.bytes) / static_cast<double>(total_bytes)
                            : 0)));
  }
  spec_use.summary =
      fmt::format("{} partition spec{} hold data", specs.size(), specs.size() == 1 ? "" : "s");
  spec_use.details = uses;
  if (old_specs) {
    spec_use.fix = fmt::format(
        "optional: CALL system.rewrite_data_files(table => '{}', options => map('rewrite-all', "
        "'true')) rewrites old-spec files into the current spec",
        c.name);
  }
  spec_use.numbers = {{"specs_in_use", static_cast<double>(specs.size())}};
  c.report.findings.push_back(std::move(spec_use));

  // Small files a bin-pack compaction would merge.
  DoctorFinding small;
  small.check = "small-files";
  int64_t small_partitions = 0, small_total = 0;
  std::vector<std::pair<int64_t, std::string>> worst_small;
  for (const auto& [key, p] : partitions) {
    small_total += p.small_files;
    if (p.small_files >= c.options.min_small_files) {
      ++small_partitions;
      worst_small.emplace_back(p.small_files, p.text);
    }
  }
  std::stable_sort(worst_small.begin(), worst_small.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; i < worst_small.size() && i < 5; ++i) {
    small.details.push_back(
        fmt::format("{}: {} small files", worst_small[i].second, worst_small[i].first));
  }
  small.crossed = small_partitions > 0;
  small.summary = fmt::format(
      "{} of {} data files are under {} ({} of write.target-file-size-bytes); {} partitions hold "
      "{} or more of them",
      small_total, data_files, mb(small_below), pct(c.options.small_file_ratio), small_partitions,
      c.options.min_small_files);
  if (small.crossed)
    small.fix = fmt::format("CALL system.rewrite_data_files(table => '{}')", c.name);
  small.numbers = {{"small_files", static_cast<double>(small_total)},
                   {"data_files", static_cast<double>(data_files)},
                   {"partitions_to_compact", static_cast<double>(small_partitions)}};
  c.report.findings.push_back(std::move(small));
  return Status::OK();
}

// Snapshots past retention: not a ref head, not among the first min-snapshots-to-keep of main,
// and older than max-snapshot-age (the table's history.expire.* properties).
void check_snapshots(Context& c) {
  const TableMetadata& m = *c.metadata;
  const int64_t now = internal::now_ms();
  const int64_t max_age = int_property(m.properties, kMaxSnapshotAgeMs, kMaxSnapshotAgeMsDefault);
  const int64_t min_keep =
      int_property(m.properties, kMinSnapshotsToKeep, kMinSnapshotsToKeepDefault);
  std::set<int64_t> keep;
  for (const auto& [name, ref] : m.refs) keep.insert(ref.snapshot_id);
  if (const Snapshot* s = m.current_snapshot()) {
    for (int64_t i = 0; s && i < min_keep; ++i) {
      keep.insert(s->snapshot_id);
      s = s->parent_snapshot_id ? m.snapshot_by_id(*s->parent_snapshot_id) : nullptr;
    }
  }
  int64_t expirable = 0;
  for (const auto& s : m.snapshots) {
    if (!keep.count(s->snapshot_id) && s->timestamp_ms < now - max_age) ++expirable;
  }
  DoctorFinding f;
  f.check = "snapshots";
  f.crossed = expirable > c.options.max_expirable_snapshots;
  f.summary = fmt::format(
      "{} snapshots, {} past retention (older than {:.1f} days, beyond the newest {}); {} "
      "metadata log entries",
      m.snapshots.size(), expirable, max_age / 86400000.0, min_keep, m.metadata_log.size());
  if (f.crossed) f.fix = fmt::format("CALL system.expire_snapshots(table => '{}')", c.name);
  f.numbers = {{"snapshots", static_cast<double>(m.snapshots.size())},
               {"expirable_snapshots", static_cast<double>(expirable)}};
  c.report.findings.push_back(std::move(f));
}

Status check_orphans(Context& c) {
  RemoveOrphanFilesOptions o;
  o.dry_run = true;
  o.older_than_ms = internal::now_ms() - c.options.orphan_age_ms;
  auto result = FLOE_TRY(remove_orphan_files(c.table, o));
  DoctorFinding f;
  f.check = "orphans";
  const auto n = static_cast<int64_t>(result.orphans.size());
  f.crossed = n > 0;
  f.summary = fmt::format(
      "{} of {} files under the table location are referenced by no metadata and older than "
      "{:.1f} days",
      n, result.listed, c.options.orphan_age_ms / 86400000.0);
  for (size_t i = 0; i < result.orphans.size() && i < 5; ++i) {
    f.details.push_back(result.orphans[i]);
  }
  if (f.crossed) {
    f.fix = fmt::format("CALL system.remove_orphan_files(table => '{}')", c.name);
  }
  f.numbers = {{"orphan_files", static_cast<double>(n)},
               {"listed_files", static_cast<double>(result.listed)}};
  c.report.findings.push_back(std::move(f));
  return Status::OK();
}

}  // namespace

Result<DoctorReport> diagnose_table(Table& table, const DoctorOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  DoctorReport report;
  report.table = table.id().to_string();
  Context c{table, options, table.metadata(), report.table, report};
  const Snapshot* snapshot = c.metadata->current_snapshot();
  if (snapshot) {
    report.snapshot_id = snapshot->snapshot_id;
    auto manifests = FLOE_TRY(snapshot_manifests(*table.io(), *c.metadata, *snapshot));
    report.io_requests += 1;  // the manifest list
    check_manifest_list(c, manifests);
    FLOE_TRY(check_files(c));
  }
  check_snapshots(c);
  if (options.check_orphans) FLOE_TRY(check_orphans(c));
  report.took_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace floe
