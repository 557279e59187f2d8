// Schema: a struct of fields with ids, a schema id and identifier (row key) field ids, with
// lookups by field id at any depth and by dotted name (case-sensitive or not).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "floe/spec/type.h"

namespace floe {

class Schema {
 public:
  Schema(int32_t schema_id, std::vector<NestedField> fields,
         std::vector<int32_t> identifier_field_ids = {});

  int32_t schema_id() const { return schema_id_; }
  const std::vector<NestedField>& fields() const { return struct_->fields(); }
  const TypePtr& as_struct() const { return struct_; }
  const std::vector<int32_t>& identifier_field_ids() const { return identifier_field_ids_; }

  // Any field (struct field, list element, map key or value) by id, or nullptr.
  const NestedField* find_field(int32_t field_id) const;
  // By full dotted name ("location.lat", "tags.element", "props.key") or short name that
  // omits list "element" and map "value" segments. Case-insensitive matching lower-cases both.
  const NestedField* find_field(std::string_view name, bool case_sensitive = true) const;
  // The full dotted name of a field id, e.g. "location.lat".
  std::optional<std::string> find_column_name(int32_t field_id) const;
  // Id of the field that contains field_id (struct, list or map), or nullopt at top level.
  std::optional<int32_t> parent_id(int32_t field_id) const;
  // Highest field id in the schema (0 if empty).
  int32_t highest_field_id() const { return highest_field_id_; }

  // Same fields and identifier fields (ignores the schema id).
  bool same_schema(const Schema& other) const;
  bool operator==(const Schema& other) const;

  // Validates identifier fields and id uniqueness.
  Status validate() const;

 private:
  void index(const NestedField& field, const std::string& full, const std::string& shortn,
             std::optional<int32_t> parent);

  int32_t schema_id_;
  TypePtr struct_;
  std::vector<int32_t> identifier_field_ids_;
  int32_t highest_field_id_ = 0;
  std::unordered_map<int32_t, const NestedField*> by_id_;
  std::unordered_map<int32_t, std::string> name_by_id_;
  std::unordered_map<int32_t, int32_t> parent_by_id_;
  std::unordered_map<std::string, int32_t> by_name_;
  std::unordered_map<std::string, int32_t> by_lower_name_;
  std::vector<int32_t> duplicate_ids_;
};

using SchemaPtr = std::shared_ptr<const Schema>;

}  // namespace floe
