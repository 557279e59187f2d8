// Avro schemas (Avro 1.11 specification): records, enums, arrays, maps, unions, fixed and the
// primitives, with every attribute beyond the structural ones kept verbatim (logicalType,
// field-id, element-id, key-id, value-id, adjust-to-utc, iceberg-field-name, doc, default, ...)
// so that a schema read from a file is written back unchanged. Nodes live in an arena owned by
// AvroSchema; named-type references and recursive types point into it.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/util/result.h"

namespace floe::avro {

enum class AvroType : uint8_t {
  kNull,
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kBytes,
  kString,
  kRecord,
  kEnum,
  kArray,
  kMap,
  kUnion,
  kFixed,
};

const char* avro_type_name(AvroType type);

struct Node;

// A record field. `props` holds every attribute except name and type (doc, default, field-id,
// aliases, ...), in file order.
struct Field {
  std::string name;
  const Node* type = nullptr;
  nlohmann::ordered_json props = nlohmann::ordered_json::object();
  std::optional<int32_t> field_id;  // parsed from props["field-id"]

  bool has_default() const { return props.contains("default"); }
};

struct Node {
  AvroType type = AvroType::kNull;
  std::string name;                   // full name of a record, enum or fixed
  int32_t size = 0;                   // fixed
  std::vector<Field> fields;          // record
  std::vector<std::string> symbols;   // enum
  std::vector<const Node*> branches;  // union
  const Node* items = nullptr;        // array items, map values
  // Attributes beyond type/name/namespace/fields/symbols/size/items/values (logicalType,
  // element-id, key-id, value-id, doc, aliases, precision, scale, ...).
  nlohmann::ordered_json props = nlohmann::ordered_json::object();
  std::string logical_type;  // props["logicalType"] or empty
  std::optional<int32_t> element_id, key_id, value_id;
  // Written as a bare primitive name ("long") rather than {"type":"long"}.
  bool bare = true;

  bool is_named() const {
    return type == AvroType::kRecord || type == AvroType::kEnum || type == AvroType::kFixed;
  }
  // ["null", T] or [T, "null"]: the index of the null branch, or -1.
  int null_branch() const;
  // For an optional union, the non-null branch; otherwise this node.
  const Node* non_null() const;
  // A field by name (nullptr if absent).
  const Field* field(std::string_view field_name) const;
};

class AvroSchema {
 public:
  AvroSchema() = default;
  AvroSchema(AvroSchema&&) = default;
  AvroSchema& operator=(AvroSchema&&) = default;

  const Node& root() const { return *root_; }
  bool empty() const { return root_ == nullptr; }

  // Allocates a node owned by this schema (for building schemas in code).
  Node* add(Node node);
  void set_root(const Node* root) { root_ = root; }

  // Canonical-ish JSON: named types are defined at first use and referenced by name after.
  std::string to_json() const;
  nlohmann::ordered_json to_json_value() const;

 private:
  std::vector<std::unique_ptr<Node>> nodes_;
  const Node* root_ = nullptr;
};

// Parses schema JSON text. Errors name the offending JSON path.
// The fewest bytes a datum of `node` encodes in: 0 for null and records of nulls, 1 for an
// int, a string or an empty array, 4 for a float, a fixed's size, the sum over a record's
// fields. A lower bound (a recursive record counts 0 for its recursion), at most 2^40. A block
// claiming more objects than its bytes can hold is corrupt.
int64_t min_encoded_size(const Node& node);

Result<AvroSchema> parse_avro_schema(std::string_view json);
Result<AvroSchema> parse_avro_schema_value(const nlohmann::json& json);

}  // namespace floe::avro
