// The simdjson front end of table metadata parsing. A long-lived streaming table carries tens of
// thousands of snapshots (about 1 KB of JSON each), and the generic DOM parser spends most of
// its time there: this parses the snapshots and the two logs straight into typed structs with
// simdjson's on-demand API, and passes the small rest of the document (schemas, specs,
// properties, refs) to the nlohmann parser as a small JSON object. With
// `referenced_snapshots_only`, snapshots no ref points at are skipped without being decoded.
//
// Values nested deeper than kMaxJsonDepth never reach nlohmann from here: the rest is checked
// before it is parsed, and a snapshot's unknown fields are skipped by simdjson without
// recursion (the slow path checks the whole text).
//
// Any error or unexpected shape returns nullopt, and the caller parses the whole text with the
// nlohmann parser, so error messages and the handling of odd writers have one reference.
#include <simdjson.h>

#include <unordered_set>

#include "floe/util/json_depth.h"
#include "spec/table_metadata_internal.h"

namespace floe::internal {

namespace {

namespace od = simdjson::ondemand;
using nlohmann::json;

// Reads a field's value as an int64; false on any other type. Integers past 2^63 wrap, as the
// nlohmann parser reads them (some writers' snapshot ids are unsigned).
bool get_i64(od::value& v, int64_t* out) {
  od::number n;
  if (v.get_number().get(n)) return false;
  if (n.is_int64()) {
    *out = n.get_int64();
  } else if (n.is_uint64()) {
    *out = static_cast<int64_t>(n.get_uint64());
  } else {
    return false;
  }
  return true;
}

bool get_str(od::value& v, std::string* out) {
  std::string_view s;
  if (v.get_string().get(s)) return false;
  out->assign(s);
  return true;
}

// Null values read as absent, as the nlohmann parser's Obj treats them.
bool is_null(od::value& v) {
  bool null = false;
  return v.is_null().get(null) == simdjson::SUCCESS && null;
}

bool parse_summary(od::value& v, std::map<std::string, std::string>* out) {
  od::object obj;
  if (v.get_object().get(obj)) return false;
  for (auto item : obj) {
    od::field f;
    std::string_view key, value;
    if (std::move(item).get(f) || f.unescaped_key().get(key)) return false;
    std::string k(key);
    if (f.value().get_string().get(value)) return false;
    (*out)[std::move(k)] = std::string(value);
  }
  return out->count("operation") > 0;
}

bool parse_snapshot(od::object& obj, Snapshot* s) {
  bool has_id = false, has_time = false, has_list = false, has_manifests = false;
  for (auto item : obj) {
    od::field f;
    std::string_view key;
    if (std::move(item).get(f) || f.unescaped_key().get(key)) return false;
    od::value v = f.value();
    if (is_null(v)) continue;
    int64_t n = 0;
    if (key == "snapshot-id") {
      if (!get_i64(v, &s->snapshot_id)) return false;
      has_id = true;
    } else if (key == "parent-snapshot-id") {
      if (!get_i64(v, &n)) return false;  // incl. the string "null": the slow path decides
      s->parent_snapshot_id = n;
    } else if (key == "sequence-number") {
      if (!get_i64(v, &s->sequence_number)) return false;
    } else if (key == "timestamp-ms") {
      if (!get_i64(v, &s->timestamp_ms)) return false;
      has_time = true;
    } else if (key == "manifest-list") {
      if (!get_str(v, &s->manifest_list)) return false;
      has_list = true;
    } else if (key == "manifests") {
      od::array list;
      if (v.get_array().get(list)) return false;
      for (auto m : list) {
        std::string_view path;
        if (m.get_string().get(path)) return false;
        s->manifests.emplace_back(path);
      }
      has_manifests = true;
    } else if (key == "summary") {
      if (!parse_summary(v, &s->summary)) return false;
    } else if (key == "schema-id") {
      if (!get_i64(v, &n) || n < INT32_MIN || n > INT32_MAX) return false;
      s->schema_id = static_cast<int32_t>(n);
    } else if (key == "first-row-id") {
      if (!get_i64(v, &n)) return false;
      s->first_row_id = n;
    } else if (key == "added-rows") {
      if (!get_i64(v, &n)) return false;
      s->added_rows = n;
    } else if (key == "key-id") {
      std::string id;
      if (!get_str(v, &id)) return false;
      s->key_id = std::move(id);
    }
  }
  if (has_list) s->manifests.clear();
  return has_id && has_time && (has_list || has_manifests);
}

// The ids current-snapshot-id and the refs point at (a first pass over the document: Java
// writes refs before snapshots, other writers need not).
bool referenced_ids(od::document& doc, std::unordered_set<int64_t>* ids) {
  od::object top;
  if (doc.get_object().get(top)) return false;
  for (auto item : top) {
    od::field f;
    std::string_view key;
    if (std::move(item).get(f) || f.unescaped_key().get(key)) return false;
    od::value v = f.value();
    if (key == "current-snapshot-id") {
      if (is_null(v)) continue;
      int64_t id = 0;
      if (!get_i64(v, &id)) return false;
      ids->insert(id);
    } else if (key == "refs") {
      od::object refs;
      if (v.get_object().get(refs)) return false;
      for (auto ref : refs) {
        od::field r;
        od::object body;
        if (std::move(ref).get(r) || r.value().get_object().get(body)) return false;
        int64_t id = 0;
        od::value idv;
        if (body.find_field_unordered("snapshot-id").get(idv) || !get_i64(idv, &id)) return false;
        ids->insert(id);
      }
    }
  }
  doc.rewind();
  return true;
}

bool parse_snapshots(od::value& v, const std::unordered_set<int64_t>* wanted, TableMetadata* m) {
  od::array list;
  if (v.get_array().get(list)) return false;
  for (auto item : list) {
    od::object obj;
    if (item.get_object().get(obj)) return false;
    if (wanted) {
      od::value idv;
      int64_t id = 0;
      if (obj.find_field_unordered("snapshot-id").get(idv) || !get_i64(idv, &id)) return false;
      if (!wanted->count(id)) {
        ++m->omitted_snapshots;
        continue;  // the iterator skips the rest of the object
      }
      bool empty = false;
      if (obj.reset().get(empty)) return false;
    }
    auto s = std::make_shared<Snapshot>();
    if (!parse_snapshot(obj, s.get())) return false;
    m->snapshots.push_back(std::move(s));
  }
  return true;
}

template <typename Entry, typename F>
bool parse_log(od::value& v, std::vector<Entry>* out, F&& field) {
  od::array list;
  if (v.get_array().get(list)) return false;
  for (auto item : list) {
    od::object obj;
    if (item.get_object().get(obj)) return false;
    Entry e;
    int found = 0;
    for (auto member : obj) {
      od::field f;
      std::string_view key;
      if (std::move(member).get(f) || f.unescaped_key().get(key)) return false;
      od::value value = f.value();
      if (is_null(value)) continue;
      int r = field(key, value, &e);
      if (r < 0) return false;
      found += r;
    }
    if (found != 2) return false;
    out->push_back(std::move(e));
  }
  return true;
}

// The raw text of any value, for the nlohmann half.
bool raw_value(od::value& v, std::string_view* raw) {
  od::json_type type;
  if (v.type().get(type)) return false;
  if (type == od::json_type::object) {
    od::object o;
    return !v.get_object().get(o) && !o.raw_json().get(*raw);
  }
  if (type == od::json_type::array) {
    od::array a;
    return !v.get_array().get(a) && !a.raw_json().get(*raw);
  }
  *raw = v.raw_json_token();
  return true;
}

}  // namespace

std::optional<TableMetadata> parse_table_metadata_fast(std::string_view text,
                                                       const MetadataParseOptions& options) {
  simdjson::padded_string padded(text);
  // One parser per thread, reused: its buffers are several times the document's size, and
  // fresh pages cost more to fault in than the parse itself. Kept only up to 64 MB documents.
  thread_local od::parser cached;
  od::parser fresh;
  od::parser& parser = text.size() <= (size_t{64} << 20) ? cached : fresh;
  od::document doc;
  if (parser.iterate(padded).get(doc)) return std::nullopt;
  std::unordered_set<int64_t> wanted;
  if (options.referenced_snapshots_only && !referenced_ids(doc, &wanted)) return std::nullopt;

  TableMetadata m;
  json rest = json::object();
  bool seen_snapshots = false, seen_snapshot_log = false, seen_metadata_log = false;
  od::object top;
  if (doc.get_object().get(top)) return std::nullopt;
  for (auto item : top) {
    od::field f;
    std::string_view key;
    if (std::move(item).get(f) || f.unescaped_key().get(key)) return std::nullopt;
    std::string name(key);
    od::value v = f.value();
    bool null = is_null(v);
    if (name == "snapshots") {
      if (seen_snapshots) return std::nullopt;
      seen_snapshots = true;
      if (!null && !parse_snapshots(v, options.referenced_snapshots_only ? &wanted : nullptr, &m)) {
        return std::nullopt;
      }
    } else if (name == "snapshot-log") {
      if (seen_snapshot_log) return std::nullopt;
      seen_snapshot_log = true;
      if (!null &&
          !parse_log(v, &m.snapshot_log, [](std::string_view k, od::value& v, SnapshotLogEntry* e) {
            if (k == "timestamp-ms") return get_i64(v, &e->timestamp_ms) ? 1 : -1;
            if (k == "snapshot-id") return get_i64(v, &e->snapshot_id) ? 1 : -1;
            return 0;
          })) {
        return std::nullopt;
      }
    } else if (name == "metadata-log") {
      if (seen_metadata_log) return std::nullopt;
      seen_metadata_log = true;
      if (!null &&
          !parse_log(v, &m.metadata_log, [](std::string_view k, od::value& v, MetadataLogEntry* e) {
            if (k == "timestamp-ms") return get_i64(v, &e->timestamp_ms) ? 1 : -1;
            if (k == "metadata-file") return get_str(v, &e->metadata_file) ? 1 : -1;
            return 0;
          })) {
        return std::nullopt;
      }
    } else {
      if (rest.contains(name)) return std::nullopt;  // duplicate keys: the slow path decides
      std::string_view raw;
      if (null) {
        rest[name] = nullptr;
        continue;
      }
      if (!raw_value(v, &raw)) return std::nullopt;
      // Too deep to copy and print safely: the slow path reports it.
      if (json_depth(raw) > kMaxJsonDepth) return std::nullopt;
      json value = json::parse(raw, nullptr, false);
      if (value.is_discarded()) return std::nullopt;
      rest[name] = std::move(value);
    }
  }
  auto parsed = parse_table_metadata_json(rest, std::move(m), true);
  if (!parsed.ok()) return std::nullopt;
  return std::move(*parsed);
}

}  // namespace floe::internal
