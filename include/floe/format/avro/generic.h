// Generic Avro datum to JSON, for `floe cat` and tests only (the manifest hot path decodes
// straight into its model; see floe/manifest). JSON form: records are objects in field order,
// unions are their branch's plain value, enums their symbol, bytes and fixed a string with one
// code point per byte (U+0000..U+00FF, Avro's JSON encoding), NaN and infinities null.
#pragma once

#include <nlohmann/json.hpp>

#include "floe/format/avro/binary.h"
#include "floe/format/avro/container.h"
#include "floe/format/avro/schema.h"

namespace floe::avro {

// Decodes one datum; on malformed data the decoder's sticky error is set.
void decode_json(const Node& node, Decoder& decoder, nlohmann::ordered_json* out);

// Skips one datum without allocating.
void skip_datum(const Node& node, Decoder& decoder);

// Calls `fn(record)` for every object in the file (stops at the first error or when fn returns
// false).
Status for_each_json(ContainerReader& reader,
                     const std::function<bool(nlohmann::ordered_json&)>& fn);

// Bytes as a string of code points U+0000..U+00FF (UTF-8 encoded).
std::string bytes_to_latin1(std::string_view bytes);

}  // namespace floe::avro
