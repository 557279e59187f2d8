// Reading manifest lists: the manifest_file records of a snapshot, matched to the model by field
// id or legacy name (Iceberg spec, Manifest Lists).
#include "floe/manifest/manifest_list_reader.h"

#include <algorithm>

#include "floe/format/avro/container.h"
#include "floe/format/avro/generic.h"
#include "manifest/manifest_reader_internal.h"

namespace floe {

using avro::AvroType;
using avro::Decoder;
using avro::Node;
using internal::array_items;
using internal::read_int32;
using internal::read_integer;
using internal::read_opt_int;
using internal::read_opt_text;
using internal::read_text;
using internal::resolve_id;
using internal::Step;
using internal::value_node;

namespace {

inline bool read_boolean(Decoder& d, const Node* t) {
  if (t->type == AvroType::kBoolean) return d.read_bool();
  d.fail("expected a boolean");
  return false;
}

enum ListSlot : int32_t {
  kPath = 500,
  kLength = 501,
  kSpecId = 502,
  kAddedSnapshot = 503,
  kAddedFiles = 504,
  kExistingFiles = 505,
  kDeletedFiles = 506,
  kPartitions = 507,
  kAddedRows = 512,
  kExistingRows = 513,
  kDeletedRows = 514,
  kSeq = 515,
  kMinSeq = 516,
  kContent = 517,
  kKeyMetadata = 519,
  kFirstRowId = 520,
  kContainsNull = 509,
  kContainsNan = 518,
  kLower = 510,
  kUpper = 511,
};

const std::map<std::string_view, int32_t>& list_names() {
  static const std::map<std::string_view, int32_t> m = {
      {"manifest_path", 500},
      {"manifest_length", 501},
      {"partition_spec_id", 502},
      {"added_snapshot_id", 503},
      {"added_files_count", 504},
      {"added_data_files_count", 504},
      {"existing_files_count", 505},
      {"existing_data_files_count", 505},
      {"deleted_files_count", 506},
      {"deleted_data_files_count", 506},
      {"partitions", 507},
      {"added_rows_count", 512},
      {"existing_rows_count", 513},
      {"deleted_rows_count", 514},
      {"sequence_number", 515},
      {"min_sequence_number", 516},
      {"content", 517},
      {"key_metadata", 519},
      {"first_row_id", 520},
      {"contains_null", 509},
      {"contains_nan", 518},
      {"lower_bound", 510},
      {"upper_bound", 511},
  };
  return m;
}

std::vector<Step> make_steps(const Node& record,
                             const std::map<std::string_view, int32_t>& by_name) {
  std::vector<Step> steps;
  for (const auto& f : record.fields) steps.push_back({f.type, resolve_id(f, by_name)});
  return steps;
}

void decode_summary(Decoder& d, const std::vector<Step>& steps, PartitionFieldSummary* s) {
  for (const Step& st : steps) {
    switch (st.id) {
      case kContainsNull: {
        const Node* v = value_node(d, st.type);
        s->contains_null = v ? read_boolean(d, v) : false;
        break;
      }
      case kContainsNan: {
        const Node* v = value_node(d, st.type);
        if (v) {
          s->contains_nan = read_boolean(d, v);
        } else {
          s->contains_nan.reset();
        }
        break;
      }
      case kLower:
        read_opt_text(d, st.type, &s->lower_bound);
        break;
      case kUpper:
        read_opt_text(d, st.type, &s->upper_bound);
        break;
      default:
        avro::skip_datum(*st.type, d);
    }
  }
}

void decode_list_entry(Decoder& d, const std::vector<Step>& steps,
                       const std::vector<Step>& summary_steps, ManifestFile* m) {
  for (const Step& st : steps) {
    switch (st.id) {
      case kPath: {
        const Node* v = value_node(d, st.type);
        if (v) m->manifest_path.assign(read_text(d, v));
        break;
      }
      case kLength: {
        const Node* v = value_node(d, st.type);
        if (v) m->manifest_length = read_integer(d, v);
        break;
      }
      case kSpecId: {
        const Node* v = value_node(d, st.type);
        if (v) m->partition_spec_id = read_int32(d, v);
        break;
      }
      case kContent: {
        const Node* v = value_node(d, st.type);
        int32_t c = v ? read_int32(d, v) : 0;
        if (c != 0 && c != 1) d.fail("invalid manifest content");
        m->content = static_cast<ManifestContent>(c);
        break;
      }
      case kSeq: {
        const Node* v = value_node(d, st.type);
        m->sequence_number = v ? read_integer(d, v) : 0;
        break;
      }
      case kMinSeq: {
        const Node* v = value_node(d, st.type);
        m->min_sequence_number = v ? read_integer(d, v) : 0;
        break;
      }
      case kAddedSnapshot:
        read_opt_int(d, st.type, &m->added_snapshot_id);
        break;
      case kAddedFiles:
        read_opt_int(d, st.type, &m->added_files_count);
        break;
      case kExistingFiles:
        read_opt_int(d, st.type, &m->existing_files_count);
        break;
      case kDeletedFiles:
        read_opt_int(d, st.type, &m->deleted_files_count);
        break;
      case kAddedRows:
        read_opt_int(d, st.type, &m->added_rows_count);
        break;
      case kExistingRows:
        read_opt_int(d, st.type, &m->existing_rows_count);
        break;
      case kDeletedRows:
        read_opt_int(d, st.type, &m->deleted_rows_count);
        break;
      case kKeyMetadata:
        read_opt_text(d, st.type, &m->key_metadata);
        break;
      case kFirstRowId:
        read_opt_int(d, st.type, &m->first_row_id);
        break;
      case kPartitions: {
        const Node* v = value_node(d, st.type);
        if (v == nullptr) {
          m->partitions.reset();
          break;
        }
        if (v->type != AvroType::kArray || v->items->type != AvroType::kRecord) {
          avro::skip_datum(*v, d);
          break;
        }
        m->partitions.emplace();
        while (int64_t n = d.read_block_count()) {
          for (int64_t i = 0; i < n && d.ok(); ++i) {
            decode_summary(d, summary_steps, &m->partitions->emplace_back());
          }
        }
        break;
      }
      default:
        avro::skip_datum(*st.type, d);
    }
    if (!d.ok()) return;
  }
}

}  // namespace

Result<ManifestList> parse_manifest_list(std::string bytes, std::string_view path) {
  auto reader = FLOE_TRY(avro::ContainerReader::open(std::move(bytes), std::string(path)));
  const Node& root = reader->schema().root();
  if (root.type != AvroType::kRecord) {
    return invalid_data("{}: manifest list schema is not a record", path);
  }
  std::vector<Step> steps = make_steps(root, list_names());
  bool has_path = false;
  std::vector<Step> summary_steps;
  for (const auto& f : root.fields) {
    int32_t id = resolve_id(f, list_names());
    if (id == kPath) has_path = true;
    if (id == kPartitions) {
      if (const Node* items = array_items(f.type); items && items->type == AvroType::kRecord) {
        summary_steps = make_steps(*items, list_names());
      }
    }
  }
  if (!has_path) return invalid_data("{}: not a manifest list (no manifest_path field)", path);
  ManifestList list;
  list.metadata = reader->metadata();
  list.codec = reader->codec();
  while (FLOE_TRY(reader->next_block())) {
    Decoder& d = reader->decoder();
    // next_block() bounded the count by the block's bytes; past a million entries growth is
    // left to push_back, so a corrupt count never reserves more than the entries decoded.
    size_t needed = list.manifests.size() + static_cast<size_t>(reader->block_count());
    if (needed > list.manifests.capacity() && needed <= (size_t{1} << 20)) {
      list.manifests.reserve(std::max(needed, 2 * list.manifests.capacity()));
    }
    for (int64_t i = 0; i < reader->block_count() && d.ok(); ++i) {
      decode_list_entry(d, steps, summary_steps, &list.manifests.emplace_back());
    }
    FLOE_TRY(reader->finish_block());
  }
  return list;
}

Result<ManifestList> read_manifest_list(FileIO& io, std::string_view path) {
  std::string bytes = FLOE_TRY_CTX(io.read_file(path), "reading manifest list");
  return parse_manifest_list(std::move(bytes), path);
}

Result<std::vector<ManifestFile>> snapshot_manifests(FileIO& io, const TableMetadata& table,
                                                     const Snapshot& snapshot) {
  if (!snapshot.manifest_list.empty()) {
    auto list = FLOE_TRY(read_manifest_list(io, snapshot.manifest_list));
    return std::move(list.manifests);
  }
  std::vector<ManifestFile> out;
  for (const auto& p : snapshot.manifests) {
    ManifestFile m;
    m.manifest_path = p;
    m.manifest_length = FLOE_TRY(io.file_size(p));
    m.partition_spec_id = table.default_spec_id;
    m.added_snapshot_id = snapshot.snapshot_id;
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace floe
