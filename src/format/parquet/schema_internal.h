// Private: the Parquet schema tree and its mapping to Iceberg fields, shared by the reader, the
// writer's tests and the CLI. Levels follow Dremel: `def` of a node counts the optional and
// repeated nodes from the root down to it (inclusive), `rep` the repeated ones.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "floe/format/parquet/metadata.h"
#include "floe/format/parquet/reader.h"
#include "floe/spec/type.h"

namespace floe::parquet::internal {

// How physical values become Iceberg values.
enum class Conv : uint8_t {
  kNone,              // same layout
  kI32ToI64,          // int32 -> long
  kU32ToI64,          // uint32 -> long
  kMillis32ToMicros,  // TIME_MILLIS int32 -> time micros
  kMillisToMicros,    // int64 millis -> micros
  kNanosToMicros,     // TIME(NANOS) -> time micros
  kInt96,             // INT96 -> timestamptz micros
  kI32ToDecimal,
  kI64ToDecimal,
  kBytesToDecimal,  // BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY big-endian unscaled
};

struct PNode {
  int element = 0;  // index into FileMetaData::schema
  int parent = -1;
  std::vector<int> children;
  int16_t def = 0;
  int16_t rep = 0;
  int leaf = -1;  // column chunk ordinal
};

// One Iceberg field mapped onto the Parquet tree.
struct MNode {
  enum Kind : uint8_t { kPrimitive, kStruct, kList, kMap };
  Kind kind = kPrimitive;
  NestedField field;  // type set by finalize
  int pnode = -1;
  int16_t def = 0;        // non-null iff def level >= def
  int16_t entry_def = 0;  // list/map: an entry exists iff def level >= entry_def
  int16_t rep = 0;        // list/map: rep level of the repeated node
  bool in_repeated = false;
  // primitive
  int leaf = -1;
  Conv conv = Conv::kNone;
  PhysicalType physical = PhysicalType::kInt32;
  int type_length = 0;
  bool has_id = false;
  std::vector<MNode> children;
};

struct FileSchema {
  std::vector<PNode> nodes;   // nodes[0] = root
  std::vector<int> leaves;    // pnode index per column ordinal
  std::vector<MNode> fields;  // top-level Iceberg fields
  IdSource id_source = IdSource::kFieldIds;
  std::vector<int32_t> element_ids;  // Iceberg id per schema element (0 = none)
};

Result<FileSchema> map_schema(const FileMetaData& metadata,
                              const std::optional<std::string>& name_mapping);

// Iceberg type of a primitive Parquet element (and the conversion), or kNotSupported.
Result<TypePtr> primitive_type(const SchemaElement& e, Conv* conv);

}  // namespace floe::parquet::internal
