// floe inspect: the metadata of one table, as a readable report or as JSON with the spec's
// field names.
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli_internal.h"
#include "cli/text_table_internal.h"
#include "floe/io/file_io.h"
#include "floe/spec/metadata_file.h"
#include "floe/util/date_time_text.h"

namespace floe::cli {

OutputFormat GlobalOptions::output_format() const {
  if (format == "json") return OutputFormat::kJson;
  if (format == "csv") return OutputFormat::kCsv;
  return OutputFormat::kTable;
}

sql::SessionOptions GlobalOptions::session_options(int threads) const {
  sql::SessionOptions s;
  s.warehouse = warehouse;
  s.catalog_uri = catalog;
  s.catalog_name = catalog_name;
  s.catalog_properties = conf;
  s.threads = threads;
  return s;
}

namespace {

std::string format_ms(int64_t ms) {
  int64_t secs = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
  int64_t rem = ms - secs * 1000;
  return format_timestamp(secs * 1000000 + rem * 1000, false).substr(0, 23);
}

std::string transform_text(const PartitionField& f, const Schema* schema) {
  std::string source = std::to_string(f.source_id);
  if (schema) {
    if (auto name = schema->find_column_name(f.source_id)) source = *name;
  }
  if (f.transform.is_identity()) return source;
  std::string t = f.transform.to_string();
  auto bracket = t.find('[');
  if (bracket != std::string::npos) {
    return t.substr(0, bracket) + "(" + t.substr(bracket + 1, t.size() - bracket - 2) + ", " +
           source + ")";
  }
  return t + "(" + source + ")";
}

void print_fields(std::ostream& out, const std::vector<NestedField>& fields, int depth) {
  for (const auto& f : fields) {
    out << std::string(4 + depth * 2, ' ') << f.id << ": " << f.name << " "
        << (f.type->is_primitive() ? f.type->to_string() : type_id_name(f.type->id()))
        << (f.required ? " required" : " optional");
    if (f.initial_default) out << " initial-default=" << f.initial_default->to_string();
    if (f.write_default) out << " write-default=" << f.write_default->to_string();
    if (!f.doc.empty()) out << "  -- " << f.doc;
    out << "\n";
    if (f.type->is_nested()) print_fields(out, f.type->fields(), depth + 1);
  }
}

void print_report(std::ostream& out, const CurrentMetadataFile& file, const TableMetadata& m) {
  TextTable info({"property", "value"});
  info.add_row({"metadata file", file.path + " (" + file.reason + ")"});
  info.add_row({"format version", std::to_string(m.format_version)});
  info.add_row({"table uuid", m.table_uuid.empty() ? "(none)" : m.table_uuid});
  info.add_row({"location", m.location});
  info.add_row({"last updated",
                format_ms(m.last_updated_ms) + " (" + std::to_string(m.last_updated_ms) + ")"});
  info.add_row({"last sequence number", std::to_string(m.last_sequence_number)});
  info.add_row({"last column id", std::to_string(m.last_column_id)});
  info.add_row({"last partition id", std::to_string(m.last_partition_id)});
  info.add_row({"current snapshot", m.current_snapshot_id ? std::to_string(*m.current_snapshot_id)
                                                          : std::string("(none)")});
  if (m.next_row_id) info.add_row({"next row id", std::to_string(*m.next_row_id)});
  info.print(out, /*header=*/false);

  out << "\nschemas (" << m.schemas.size() << ", current " << m.current_schema_id << ")\n";
  for (const auto& s : m.schemas) {
    out << "  schema " << s->schema_id()
        << (s->schema_id() == m.current_schema_id ? " (current)" : "");
    if (!s->identifier_field_ids().empty()) {
      out << " identifier fields [";
      for (size_t i = 0; i < s->identifier_field_ids().size(); ++i) {
        out << (i ? ", " : "") << s->identifier_field_ids()[i];
      }
      out << "]";
    }
    out << "\n";
    print_fields(out, s->fields(), 0);
  }

  out << "\npartition specs (" << m.specs.size() << ", default " << m.default_spec_id << ")\n";
  for (const auto& spec : m.specs) {
    out << "  spec " << spec->spec_id()
        << (spec->spec_id() == m.default_spec_id ? " (default)" : "")
        << (spec->fields().empty() ? ": unpartitioned" : "") << "\n";
    if (spec->fields().empty()) continue;
    TextTable t({"field id", "name", "transform", "source id", "expression"});
    for (const auto& f : spec->fields()) {
      t.add_row({std::to_string(f.field_id), f.name, f.transform.to_string(),
                 std::to_string(f.source_id), transform_text(f, m.schema())});
    }
    t.print(out, true, 4);
  }

  out << "\nsort orders (" << m.sort_orders.size() << ", default " << m.default_sort_order_id
      << ")\n";
  for (const auto& o : m.sort_orders) {
    out << "  order " << o->order_id
        << (o->order_id == m.default_sort_order_id ? " (default)" : "");
    if (o->is_unsorted()) {
      out << ": unsorted\n";
      continue;
    }
    out << ":";
    for (size_t i = 0; i < o->fields.size(); ++i) {
      const auto& f = o->fields[i];
      PartitionField pf{f.source_id, {}, 0, "", f.transform};
      out << (i ? ", " : " ") << transform_text(pf, m.schema()) << " "
          << sort_direction_name(f.direction) << " " << null_order_name(f.null_order);
    }
    out << "\n";
  }

  out << "\nrefs (" << m.refs.size() << ")\n";
  if (!m.refs.empty()) {
    TextTable t({"name", "type", "snapshot id", "retention"});
    for (const auto& [name, r] : m.refs) {
      std::string retention;
      if (r.min_snapshots_to_keep) {
        retention += "min-snapshots-to-keep=" + std::to_string(*r.min_snapshots_to_keep) + " ";
      }
      if (r.max_snapshot_age_ms) {
        retention += "max-snapshot-age-ms=" + std::to_string(*r.max_snapshot_age_ms) + " ";
      }
      if (r.max_ref_age_ms) retention += "max-ref-age-ms=" + std::to_string(*r.max_ref_age_ms);
      t.add_row({name, r.is_branch() ? "branch" : "tag", std::to_string(r.snapshot_id), retention});
    }
    t.print(out, true, 2);
  }

  out << "\nsnapshots (" << m.snapshots.size() << ")\n";
  for (const auto& s : m.snapshots) {
    bool current = m.current_snapshot_id && *m.current_snapshot_id == s->snapshot_id;
    out << "  " << s->snapshot_id << (current ? " (current)" : "") << "\n";
    out << "    parent " << (s->parent_snapshot_id ? std::to_string(*s->parent_snapshot_id) : "-")
        << ", sequence number " << s->sequence_number << ", " << format_ms(s->timestamp_ms)
        << ", operation " << (s->operation().empty() ? "-" : s->operation());
    if (s->schema_id) out << ", schema " << *s->schema_id;
    if (s->first_row_id) out << ", first row id " << *s->first_row_id;
    if (s->added_rows) out << ", added rows " << *s->added_rows;
    out << "\n";
    if (!s->manifest_list.empty()) {
      out << "    manifest list " << s->manifest_list << "\n";
    } else {
      out << "    manifests (v1 inline) " << s->manifests.size() << "\n";
      for (const auto& mf : s->manifests) out << "      " << mf << "\n";
    }
    std::string summary;
    for (const auto& [k, v] : s->summary) {
      if (k == "operation") continue;
      summary += (summary.empty() ? "" : ", ") + k + "=" + v;
    }
    if (!summary.empty()) out << "    summary " << summary << "\n";
  }

  if (!m.statistics.empty() || !m.partition_statistics.empty()) {
    out << "\nstatistics files (" << m.statistics.size() + m.partition_statistics.size() << ")\n";
    for (const auto& f : m.statistics) {
      out << "  snapshot " << f.snapshot_id << ": " << f.statistics_path << " ("
          << f.blob_metadata.size() << " blobs)\n";
    }
    for (const auto& f : m.partition_statistics) {
      out << "  snapshot " << f.snapshot_id << ": " << f.statistics_path << " (partition stats)\n";
    }
  }

  out << "\nproperties (" << m.properties.size() << ")\n";
  for (const auto& [k, v] : m.properties) out << "  " << k << " = " << v << "\n";
  if (!m.metadata_log.empty()) {
    out << "\nmetadata log (" << m.metadata_log.size() << ")\n";
    for (const auto& e : m.metadata_log) {
      out << "  " << format_ms(e.timestamp_ms) << "  " << e.metadata_file << "\n";
    }
  }
}

}  // namespace

Status run_inspect(const GlobalOptions& options, const std::string& path,
                   const InspectOptions& inspect, std::ostream& out) {
  StoredTable table = FLOE_TRY(open_table_arg(options, path));
  CurrentMetadataFile file = table.metadata_file;
  TableMetadata metadata = *table.metadata;
  if (options.output_format() == OutputFormat::kJson) {
    nlohmann::ordered_json j;
    j["metadata-file"] = file.path;
    j["selected-by"] = file.reason;
    auto spec_json = nlohmann::ordered_json::parse(table_metadata_to_json(metadata));
    for (auto it = spec_json.begin(); it != spec_json.end(); ++it) j[it.key()] = it.value();
    out << j.dump() << "\n";
  } else {
    print_report(out, file, metadata);
  }
  if (inspect.manifests) return inspect_manifests(options, file.path, metadata, inspect, out);
  return Status::OK();
}

}  // namespace floe::cli
