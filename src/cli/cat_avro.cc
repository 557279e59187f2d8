// floe cat on Avro container files: every record as one JSON line (generic decoding, any
// schema), or with --schema the schema, codec and header key-value metadata.
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli_internal.h"
#include "floe/format/avro/container.h"
#include "floe/format/avro/generic.h"
#include "floe/io/file_io.h"

namespace floe::cli {

Status cat_avro(const std::string& path, const CatOptions& cat, std::ostream& out) {
  auto io = make_local_file_io();
  std::string bytes = FLOE_TRY(io->read_file(path));
  auto reader = FLOE_TRY(avro::ContainerReader::open(std::move(bytes), path));
  if (cat.schema) {
    nlohmann::ordered_json j;
    j["codec"] = avro::codec_name(reader->codec());
    j["schema"] = nlohmann::ordered_json::parse(reader->schema_json(), nullptr, false);
    nlohmann::ordered_json meta = nlohmann::ordered_json::object();
    for (const auto& [k, v] : reader->metadata()) {
      if (k != "avro.schema" && k != "avro.codec") meta[k] = avro::bytes_to_latin1(v);
    }
    j["metadata"] = std::move(meta);
    out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return Status::OK();
  }
  const auto& root = reader->schema().root();
  for (const auto& name : cat.columns) {
    if (root.type != avro::AvroType::kRecord || root.field(name) == nullptr) {
      return invalid_argument("{}: no column '{}' in the file's schema", path, name);
    }
  }
  int64_t printed = 0;
  Status st = avro::for_each_json(*reader, [&](nlohmann::ordered_json& rec) {
    if (cat.limit >= 0 && printed >= cat.limit) return false;
    if (!cat.columns.empty()) {
      nlohmann::ordered_json picked = nlohmann::ordered_json::object();
      for (const auto& name : cat.columns) picked[name] = std::move(rec[name]);
      out << picked.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      out << rec.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    }
    ++printed;
    return true;
  });
  return st;
}

}  // namespace floe::cli
