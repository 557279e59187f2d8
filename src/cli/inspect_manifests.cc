// floe inspect --manifests / --entries: the manifest list of each snapshot (or one) with
// partition summaries rendered as typed values, and optionally every manifest entry with its
// metrics per column name. Table and JSON (one object per manifest / entry) output.
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli_internal.h"
#include "cli/text_table_internal.h"
#include "floe/io/relocating_file_io.h"
#include "floe/manifest/manifest_list_reader.h"
#include "floe/manifest/manifest_reader.h"
#include "floe/spec/table_metadata.h"
#include "floe/spec/type.h"

namespace floe::cli {

namespace {

using ojson = nlohmann::ordered_json;

std::string dump(const ojson& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A value from Literal::to_json as ordered JSON. String values read from data files may hold
// invalid UTF-8: it is replaced, never thrown on.
ojson ordered(const nlohmann::json& j) {
  return ojson::parse(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::string hex(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string s = "0x";
  for (unsigned char c : bytes) {
    s.push_back(kDigits[c >> 4]);
    s.push_back(kDigits[c & 15]);
  }
  return s;
}

// A single-value binary bound decoded with its type; hex when the type is unknown or the bytes
// do not fit it.
std::string bound_text(const TypePtr& type, const std::string& bytes) {
  if (type && type->is_primitive()) {
    auto lit = Literal::from_bytes(type, bytes);
    if (lit.ok()) return lit->to_string();
  }
  return hex(bytes);
}

ojson bound_json(const TypePtr& type, const std::string& bytes) {
  if (type && type->is_primitive()) {
    auto lit = Literal::from_bytes(type, bytes);
    nlohmann::json j;
    if (lit.ok() && lit->to_json(&j).ok()) return ordered(j);
  }
  return hex(bytes);
}

template <typename T>
std::string opt_text(const std::optional<T>& v) {
  return v ? std::to_string(*v) : std::string("-");
}

template <typename T>
ojson opt_json(const std::optional<T>& v) {
  return v ? ojson(*v) : ojson(nullptr);
}

// The partition type of a spec in this table (nullptr if unknown).
TypePtr partition_type_of(const TableMetadata& m, int32_t spec_id) {
  const PartitionSpec* spec = m.spec_by_id(spec_id);
  if (spec == nullptr) return nullptr;
  if (const Schema* s = m.schema()) {
    auto t = spec->partition_type(*s);
    if (t.ok()) return *t;
  }
  for (auto it = m.schemas.rbegin(); it != m.schemas.rend(); ++it) {
    auto t = spec->partition_type(**it);
    if (t.ok()) return *t;
  }
  return nullptr;
}

struct ColumnInfo {
  std::string name;
  TypePtr type;
};

// A column by id: the current schema first, then older schemas (dropped columns).
ColumnInfo column(const TableMetadata& m, int32_t id) {
  std::vector<const Schema*> order;
  if (m.schema()) order.push_back(m.schema());
  for (auto it = m.schemas.rbegin(); it != m.schemas.rend(); ++it) order.push_back(it->get());
  for (const Schema* s : order) {
    if (const NestedField* f = s->find_field(id)) {
      return {s->find_column_name(id).value_or(std::to_string(id)), f->type};
    }
  }
  return {std::to_string(id), nullptr};
}

ojson manifest_json(const TableMetadata& m, int64_t snapshot_id, const ManifestFile& mf) {
  ojson j;
  j["snapshot-id"] = snapshot_id;
  j["manifest_path"] = mf.manifest_path;
  j["manifest_length"] = mf.manifest_length;
  j["partition_spec_id"] = mf.partition_spec_id;
  j["content"] = manifest_content_name(mf.content);
  j["sequence_number"] = mf.sequence_number;
  j["min_sequence_number"] = mf.min_sequence_number;
  j["added_snapshot_id"] = opt_json(mf.added_snapshot_id);
  j["added_files_count"] = opt_json(mf.added_files_count);
  j["existing_files_count"] = opt_json(mf.existing_files_count);
  j["deleted_files_count"] = opt_json(mf.deleted_files_count);
  j["added_rows_count"] = opt_json(mf.added_rows_count);
  j["existing_rows_count"] = opt_json(mf.existing_rows_count);
  j["deleted_rows_count"] = opt_json(mf.deleted_rows_count);
  if (mf.partitions) {
    TypePtr pt = partition_type_of(m, mf.partition_spec_id);
    ojson parts = ojson::array();
    for (size_t i = 0; i < mf.partitions->size(); ++i) {
      const auto& s = (*mf.partitions)[i];
      const NestedField* f = pt && i < pt->fields().size() ? &pt->fields()[i] : nullptr;
      ojson p;
      if (f) p["field"] = f->name;
      p["contains_null"] = s.contains_null;
      p["contains_nan"] = opt_json(s.contains_nan);
      p["lower_bound"] =
          s.lower_bound ? bound_json(f ? f->type : nullptr, *s.lower_bound) : nullptr;
      p["upper_bound"] =
          s.upper_bound ? bound_json(f ? f->type : nullptr, *s.upper_bound) : nullptr;
      parts.push_back(std::move(p));
    }
    j["partitions"] = std::move(parts);
  } else {
    j["partitions"] = nullptr;
  }
  if (mf.key_metadata) j["key_metadata"] = hex(*mf.key_metadata);
  j["first_row_id"] = opt_json(mf.first_row_id);
  return j;
}

std::string partition_text(const ManifestReader& reader, const DataFile& f) {
  const auto& fields = reader.info().partition_type->fields();
  const PartitionSpec* spec = reader.info().spec.get();
  std::string s;
  for (size_t i = 0; i < f.partition.size() && i < fields.size(); ++i) {
    std::string value = f.partition[i].is_null() ? std::string("null") : f.partition[i].to_string();
    // Time transforms read better as Java prints them in paths (2020-01-01-09 for an hour).
    if (spec && i < spec->fields().size() && !f.partition[i].is_null()) {
      value = spec->fields()[i].transform.to_human_string(f.partition[i]);
    }
    s += (i ? ", " : "") + fields[i].name + "=" + value;
  }
  return s.empty() ? "-" : s;
}

ojson entry_json(const TableMetadata& m, const ManifestReader& reader, const ManifestFile& mf,
                 const ManifestEntry& e) {
  const DataFile& f = e.data_file;
  ojson j;
  j["manifest_path"] = mf.manifest_path;
  j["status"] = entry_status_name(e.status);
  j["snapshot_id"] = opt_json(e.snapshot_id);
  j["sequence_number"] = opt_json(e.sequence_number);
  j["file_sequence_number"] = opt_json(e.file_sequence_number);
  ojson d;
  d["content"] = file_content_name(f.content);
  d["file_path"] = f.file_path;
  d["file_format"] = f.file_format;
  d["spec_id"] = f.spec_id;
  ojson part = ojson::object();
  const auto& fields = reader.info().partition_type->fields();
  for (size_t i = 0; i < f.partition.size() && i < fields.size(); ++i) {
    nlohmann::json v;
    if (f.partition[i].is_null() || !f.partition[i].to_json(&v).ok()) v = nullptr;
    part[fields[i].name] = ordered(v);
  }
  d["partition"] = std::move(part);
  d["record_count"] = f.record_count;
  d["file_size_in_bytes"] = f.file_size_in_bytes;
  auto counts = [&](const ColumnMetrics<int64_t>& c) {
    ojson o = ojson::object();
    for (const auto& [id, v] : c) o[column(m, id).name] = v;
    return o;
  };
  auto bounds = [&](const ColumnMetrics<std::string>& c) {
    ojson o = ojson::object();
    for (const auto& [id, v] : c) {
      ColumnInfo ci = column(m, id);
      o[ci.name] = bound_json(ci.type, v);
    }
    return o;
  };
  d["column_sizes"] = counts(f.column_sizes);
  d["value_counts"] = counts(f.value_counts);
  d["null_value_counts"] = counts(f.null_value_counts);
  d["nan_value_counts"] = counts(f.nan_value_counts);
  d["lower_bounds"] = bounds(f.lower_bounds);
  d["upper_bounds"] = bounds(f.upper_bounds);
  d["key_metadata"] = f.key_metadata ? ojson(hex(*f.key_metadata)) : ojson(nullptr);
  d["split_offsets"] = f.split_offsets ? ojson(*f.split_offsets) : ojson(nullptr);
  d["equality_ids"] = f.equality_ids ? ojson(*f.equality_ids) : ojson(nullptr);
  d["sort_order_id"] = opt_json(f.sort_order_id);
  d["first_row_id"] = opt_json(f.first_row_id);
  d["referenced_data_file"] = opt_json(f.referenced_data_file);
  d["content_offset"] = opt_json(f.content_offset);
  d["content_size_in_bytes"] = opt_json(f.content_size_in_bytes);
  j["data_file"] = std::move(d);
  return j;
}

void print_entry_metrics(const TableMetadata& m, const DataFile& f, std::ostream& out) {
  std::vector<int32_t> ids;
  for (const auto* c :
       {&f.column_sizes, &f.value_counts, &f.null_value_counts, &f.nan_value_counts}) {
    for (const auto& [id, v] : *c) ids.push_back(id);
  }
  for (const auto* c : {&f.lower_bounds, &f.upper_bounds}) {
    for (const auto& [id, v] : *c) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.empty()) return;
  TextTable t({"column", "size", "values", "nulls", "nans", "lower bound", "upper bound"});
  auto count = [](const ColumnMetrics<int64_t>& c, int32_t id) {
    const int64_t* v = find_metric(c, id);
    return v ? std::to_string(*v) : std::string("-");
  };
  for (int32_t id : ids) {
    ColumnInfo ci = column(m, id);
    const std::string* lo = find_metric(f.lower_bounds, id);
    const std::string* hi = find_metric(f.upper_bounds, id);
    t.add_row({ci.name, count(f.column_sizes, id), count(f.value_counts, id),
               count(f.null_value_counts, id), count(f.nan_value_counts, id),
               lo ? bound_text(ci.type, *lo) : "-", hi ? bound_text(ci.type, *hi) : "-"});
  }
  t.print(out, true, 8);
}

}  // namespace

Status inspect_manifests(const GlobalOptions& options, const std::string& metadata_path,
                         const TableMetadata& metadata, const InspectOptions& inspect,
                         std::ostream& out) {
  // The table directory holds metadata/<file>; paths recorded under the table's location are
  // read from there, so tables that moved (fixtures, copied warehouses) still open.
  std::string dir = metadata_path;
  for (int up = 0; up < 2; ++up) {
    auto slash = dir.find_last_of('/');
    dir = slash == std::string::npos ? std::string(".") : dir.substr(0, slash);
  }
  FileIOPtr io = make_relocating_file_io(make_local_file_io(),
                                         {.from_location = metadata.location, .to_directory = dir});
  bool json = options.output_format() == OutputFormat::kJson;
  std::vector<const Snapshot*> snapshots;
  if (inspect.snapshot_id) {
    const Snapshot* s = metadata.snapshot_by_id(*inspect.snapshot_id);
    if (s == nullptr) return not_found("snapshot {} is not in the table", *inspect.snapshot_id);
    snapshots.push_back(s);
  } else {
    for (const auto& s : metadata.snapshots) snapshots.push_back(s.get());
  }
  if (!json) out << "\nmanifests\n";
  for (const Snapshot* snap : snapshots) {
    auto manifests = FLOE_TRY_CTX(snapshot_manifests(*io, metadata, *snap),
                                  fmt::format("snapshot {}", snap->snapshot_id));
    if (!json) {
      out << "  snapshot " << snap->snapshot_id << ": "
          << (snap->manifest_list.empty() ? std::string("inline manifests")
                                          : "manifest list " + snap->manifest_list)
          << " (" << manifests.size() << " manifests)\n";
      if (!manifests.empty()) {
        TextTable t({"path", "length", "spec", "content", "added snapshot", "seq", "min seq",
                     "files a/e/d", "rows a/e/d", "first row id"});
        for (const auto& mf : manifests) {
          t.add_row({mf.manifest_path, std::to_string(mf.manifest_length),
                     std::to_string(mf.partition_spec_id), manifest_content_name(mf.content),
                     opt_text(mf.added_snapshot_id), std::to_string(mf.sequence_number),
                     std::to_string(mf.min_sequence_number),
                     opt_text(mf.added_files_count) + "/" + opt_text(mf.existing_files_count) +
                         "/" + opt_text(mf.deleted_files_count),
                     opt_text(mf.added_rows_count) + "/" + opt_text(mf.existing_rows_count) + "/" +
                         opt_text(mf.deleted_rows_count),
                     opt_text(mf.first_row_id)});
        }
        t.print(out, true, 4);
      }
    }
    for (const auto& mf : manifests) {
      if (json) {
        out << dump(manifest_json(metadata, snap->snapshot_id, mf)) << "\n";
      } else if (mf.partitions && !mf.partitions->empty()) {
        TypePtr pt = partition_type_of(metadata, mf.partition_spec_id);
        out << "    partitions of " << mf.manifest_path << "\n";
        for (size_t i = 0; i < mf.partitions->size(); ++i) {
          const auto& s = (*mf.partitions)[i];
          const NestedField* f = pt && i < pt->fields().size() ? &pt->fields()[i] : nullptr;
          TypePtr type = f ? f->type : nullptr;
          out << "      " << (f ? f->name : "field " + std::to_string(i))
              << ": contains_null: " << (s.contains_null ? "true" : "false")
              << ", contains_nan: " << (s.contains_nan ? (*s.contains_nan ? "true" : "false") : "-")
              << ", lower_bound: " << (s.lower_bound ? bound_text(type, *s.lower_bound) : "null")
              << ", upper_bound: " << (s.upper_bound ? bound_text(type, *s.upper_bound) : "null")
              << "\n";
        }
      }
      if (!inspect.entries) continue;
      auto reader = FLOE_TRY(ManifestReader::open(*io, mf, &metadata));
      if (!json) out << "    entries of " << mf.manifest_path << "\n";
      Status st = reader->for_each([&](const ManifestEntry& e) {
        if (json) {
          out << dump(entry_json(metadata, *reader, mf, e)) << "\n";
          return true;
        }
        const DataFile& f = e.data_file;
        out << "      " << entry_status_name(e.status) << " snapshot " << opt_text(e.snapshot_id)
            << " seq " << opt_text(e.sequence_number) << " file seq "
            << opt_text(e.file_sequence_number) << " " << file_content_name(f.content) << " "
            << f.file_format << " " << f.file_path << "\n";
        out << "        partition " << partition_text(*reader, f) << ", records " << f.record_count
            << ", size " << f.file_size_in_bytes;
        if (f.referenced_data_file) out << ", references " << *f.referenced_data_file;
        if (f.content_offset) {
          out << ", content offset " << *f.content_offset << " size "
              << opt_text(f.content_size_in_bytes);
        }
        if (f.equality_ids) {
          out << ", equality ids";
          for (int32_t id : *f.equality_ids) out << " " << id;
        }
        if (f.first_row_id) out << ", first row id " << *f.first_row_id;
        out << "\n";
        print_entry_metrics(metadata, f, out);
        return true;
      });
      FLOE_TRY(st);
    }
  }
  return Status::OK();
}

}  // namespace floe::cli
