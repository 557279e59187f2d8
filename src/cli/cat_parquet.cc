// floe cat on a Parquet file: rows as JSON lines, the schema with field ids and Iceberg types
// (--schema), or the footer's row groups, column chunks and statistics (--meta).
#include <functional>
#include <map>
#include <ostream>

#include "cli/cli_internal.h"
#include "floe/format/parquet/reader.h"

namespace floe::cli {

namespace {

using parquet::ParquetReader;

const char* repetition_text(const parquet::SchemaElement& e) {
  if (!e.repetition) return "required";
  switch (*e.repetition) {
    case parquet::Repetition::kRequired:
      return "required";
    case parquet::Repetition::kOptional:
      return "optional";
    case parquet::Repetition::kRepeated:
      return "repeated";
  }
  return "";
}

const char* id_source_text(parquet::IdSource s) {
  switch (s) {
    case parquet::IdSource::kFieldIds:
      return "Parquet field ids";
    case parquet::IdSource::kNameMapping:
      return "name mapping";
    case parquet::IdSource::kPosition:
      return "position (the file has no field ids)";
  }
  return "";
}

// Iceberg type of each schema element, by walking the Iceberg schema in the same order.
void iceberg_types(const Schema& schema, std::map<int32_t, std::string>* out) {
  std::function<void(const NestedField&)> walk = [&](const NestedField& f) {
    (*out)[f.id] = f.type->is_primitive() ? f.type->to_string() : type_id_name(f.type->id());
    for (const auto& c : f.type->fields()) walk(c);
  };
  for (const auto& f : schema.fields()) walk(f);
}

Status print_schema(const ParquetReader& r, std::ostream& out) {
  const auto& md = r.metadata();
  std::map<int32_t, std::string> types;
  iceberg_types(r.schema(), &types);
  out << "message " << (md.schema.empty() ? "" : md.schema[0].name) << " {\n";
  // Indentation follows the tree: a stack of remaining children per depth.
  std::vector<int> remaining = {md.schema.empty() ? 0 : md.schema[0].num_children};
  for (size_t i = 1; i < md.schema.size(); ++i) {
    while (!remaining.empty() && remaining.back() == 0) {
      remaining.pop_back();
      out << std::string(remaining.size() * 2, ' ') << "}\n";
    }
    if (remaining.empty()) break;
    --remaining.back();
    const auto& e = md.schema[i];
    std::string indent(remaining.size() * 2, ' ');
    out << indent << repetition_text(e) << " ";
    if (e.type) {
      out << parquet::physical_type_name(*e.type);
      if (*e.type == parquet::PhysicalType::kFixedLenByteArray) out << "(" << e.type_length << ")";
    } else {
      out << "group";
    }
    out << " " << e.name;
    std::string logical = parquet::logical_type_string(e.logical_type);
    if (logical.empty() && e.converted_type != parquet::ConvertedType::kNone) {
      logical = parquet::converted_type_name(e.converted_type);
    }
    if (!logical.empty()) out << " (" << logical << ")";
    if (e.field_id) out << " = " << *e.field_id;
    if (!e.type) out << " {";
    int32_t id = r.element_field_ids()[i];
    if (id != 0 && types.count(id)) out << "  -- iceberg " << id << ": " << types[id];
    out << "\n";
    if (!e.type) remaining.push_back(e.num_children);
  }
  while (remaining.size() > 1) {
    remaining.pop_back();
    out << std::string(remaining.size() * 2, ' ') << "}\n";
  }
  out << "}\n";
  out << "field ids from: " << id_source_text(r.id_source()) << "\n";
  return Status::OK();
}

std::string stat_text(const std::optional<Literal>& v) { return v ? v->to_string() : "-"; }

Status print_meta(const ParquetReader& r, std::ostream& out) {
  const auto& md = r.metadata();
  out << "file: " << r.path() << "\n";
  out << "size: " << r.file_size() << " bytes, rows: " << md.num_rows
      << ", row groups: " << md.row_groups.size() << ", format version: " << md.version << "\n";
  if (md.created_by) out << "created by: " << *md.created_by << "\n";
  for (const auto& kv : md.key_value_metadata) {
    std::string v = kv.value.value_or("");
    if (v.size() > 80) v = v.substr(0, 77) + "...";
    out << "metadata " << kv.key << ": " << v << "\n";
  }
  // Field ids of the leaves, in column order, to name the statistics.
  for (int g = 0; g < r.num_row_groups(); ++g) {
    const auto& rg = md.row_groups[g];
    auto info = FLOE_TRY(r.row_group_info(g));
    out << "row group " << g << ": " << rg.num_rows << " rows, " << rg.total_byte_size
        << " bytes uncompressed, " << info.compressed_size << " compressed, starts at "
        << info.start_offset << "\n";
    // Map a column path to its stats through the field ids of its leaf elements.
    size_t leaf = 0;
    std::vector<int32_t> leaf_ids;
    for (size_t i = 1; i < md.schema.size(); ++i) {
      if (md.schema[i].type) leaf_ids.push_back(r.element_field_ids()[i]);
    }
    for (const auto& c : rg.columns) {
      const auto& m = *c.meta_data;
      std::string path;
      for (const auto& p : m.path_in_schema) path += (path.empty() ? "" : ".") + p;
      std::string encodings;
      for (auto e : m.encodings) {
        encodings += (encodings.empty() ? "" : ",") + std::string(parquet::encoding_name(e));
      }
      out << "  column " << path << ": " << parquet::physical_type_name(m.type) << " "
          << parquet::codec_name(m.codec) << " [" << encodings << "] values " << m.num_values
          << ", " << m.total_compressed_size << " bytes (" << m.total_uncompressed_size
          << " uncompressed), data page at " << m.data_page_offset;
      if (m.dictionary_page_offset) out << ", dictionary at " << *m.dictionary_page_offset;
      int32_t id = leaf < leaf_ids.size() ? leaf_ids[leaf] : 0;
      auto st = info.stats.find(id);
      if (st != info.stats.end()) {
        if (st->second.null_count) out << ", nulls " << *st->second.null_count;
        if (st->second.lower) {
          out << ", min " << stat_text(st->second.lower) << ", max " << stat_text(st->second.upper);
        }
      }
      out << "\n";
      ++leaf;
    }
  }
  return Status::OK();
}

}  // namespace

Status cat_parquet(const std::string& path, const CatOptions& cat, std::ostream& out) {
  auto reader = FLOE_TRY(ParquetReader::open(make_local_file_io(), path));
  if (cat.schema) return print_schema(*reader, out);
  if (cat.meta) return print_meta(*reader, out);
  if (!cat.columns.empty()) {
    std::vector<int32_t> ids;
    for (const auto& name : cat.columns) {
      const NestedField* f = reader->schema().find_field(name);
      if (!f) return invalid_argument("{}: no column {}", path, name);
      ids.push_back(f->id);
    }
    FLOE_TRY(reader->select(ids));
  }
  int64_t printed = 0;
  std::string line;
  JsonOptions json;
  while (cat.limit < 0 || printed < cat.limit) {
    auto batch = FLOE_TRY(reader->next_batch());
    if (!batch) break;
    for (int64_t r = 0; r < batch->num_rows && (cat.limit < 0 || printed < cat.limit); ++r) {
      line.clear();
      write_row_json(*batch, r, json, &line);
      line.push_back('\n');
      out << line;
      ++printed;
    }
  }
  return Status::OK();
}

}  // namespace floe::cli
