// Metadata columns (Iceberg spec, "Reserved Field IDs"): see floe/spec/metadata_columns.h.
#include "floe/spec/metadata_columns.h"

#include "floe/util/strings.h"

namespace floe {

namespace {

NestedField required_field(int32_t id, const char* name, TypePtr type, const char* doc) {
  NestedField f;
  f.id = id;
  f.name = name;
  f.type = std::move(type);
  f.required = true;
  f.doc = doc;
  return f;
}

}  // namespace

const NestedField& file_column() {
  static const NestedField f = required_field(kFileColumnId, "_file", Type::string(),
                                              "Path of the file in which a row is stored");
  return f;
}

const NestedField& position_column() {
  static const NestedField f = required_field(kPositionColumnId, "_pos", Type::int64(),
                                              "Ordinal position of a row in the source data file");
  return f;
}

const NestedField* find_metadata_column(int32_t id) {
  if (id == kFileColumnId) return &file_column();
  if (id == kPositionColumnId) return &position_column();
  return nullptr;
}

const NestedField* find_metadata_column(std::string_view name) {
  if (iequals(name, "_file")) return &file_column();
  if (iequals(name, "_pos")) return &position_column();
  return nullptr;
}

}  // namespace floe
