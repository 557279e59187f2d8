// Metadata columns (Iceberg spec, "Reserved Field IDs"): see floe/spec/metadata_columns.h.
#include "floe/spec/metadata_columns.h"

#include "floe/util/strings.h"

namespace floe {

const NestedField& file_column() {
  static const NestedField f = [] {
    NestedField n;
    n.id = kFileColumnId;
    n.name = "_file";
    n.type = Type::string();
    n.required = true;
    n.doc = "Path of the file in which a row is stored";
    return n;
  }();
  return f;
}

const NestedField& position_column() {
  static const NestedField f = [] {
    NestedField n;
    n.id = kPositionColumnId;
    n.name = "_pos";
    n.type = Type::int64();
    n.required = true;
    n.doc = "Ordinal position of a row in the source data file";
    return n;
  }();
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
