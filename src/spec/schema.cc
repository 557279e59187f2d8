#include "floe/spec/schema.h"

#include <algorithm>
#include <cctype>
#include <unordered_set>

#include "floe/util/strings.h"

namespace floe {

namespace {

std::string join(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

}  // namespace

Schema::Schema(int32_t schema_id, std::vector<NestedField> fields,
               std::vector<int32_t> identifier_field_ids)
    : schema_id_(schema_id),
      struct_(Type::struct_of(std::move(fields))),
      identifier_field_ids_(std::move(identifier_field_ids)) {
  for (const auto& f : struct_->fields()) index(f, f.name, f.name, std::nullopt);
}

void Schema::index(const NestedField& field, const std::string& full, const std::string& shortn,
                   std::optional<int32_t> parent) {
  if (!by_id_.emplace(field.id, &field).second) duplicate_ids_.push_back(field.id);
  name_by_id_.emplace(field.id, full);
  if (parent) parent_by_id_.emplace(field.id, *parent);
  highest_field_id_ = std::max(highest_field_id_, field.id);
  by_name_.emplace(full, field.id);
  by_lower_name_.emplace(to_lower(full), field.id);
  if (shortn != full) {
    by_name_.emplace(shortn, field.id);
    by_lower_name_.emplace(to_lower(shortn), field.id);
  }
  const Type& t = *field.type;
  if (t.is_struct()) {
    for (const auto& c : t.fields()) {
      index(c, join(full, c.name), join(shortn, c.name), field.id);
    }
  } else if (t.is_list()) {
    // Full name keeps "element"; the short name drops it (Java's IndexByName).
    const auto& e = t.element();
    index(e, join(full, e.name), shortn, field.id);
  } else if (t.is_map()) {
    index(t.key(), join(full, t.key().name), join(shortn, t.key().name), field.id);
    index(t.value(), join(full, t.value().name), shortn, field.id);
  }
}

const NestedField* Schema::find_field(int32_t field_id) const {
  auto it = by_id_.find(field_id);
  return it == by_id_.end() ? nullptr : it->second;
}

const NestedField* Schema::find_field(std::string_view name, bool case_sensitive) const {
  if (case_sensitive) {
    auto it = by_name_.find(std::string(name));
    return it == by_name_.end() ? nullptr : find_field(it->second);
  }
  auto it = by_lower_name_.find(to_lower(name));
  return it == by_lower_name_.end() ? nullptr : find_field(it->second);
}

std::optional<std::string> Schema::find_column_name(int32_t field_id) const {
  auto it = name_by_id_.find(field_id);
  if (it == name_by_id_.end()) return std::nullopt;
  return it->second;
}

std::optional<int32_t> Schema::parent_id(int32_t field_id) const {
  auto it = parent_by_id_.find(field_id);
  if (it == parent_by_id_.end()) return std::nullopt;
  return it->second;
}

bool Schema::same_schema(const Schema& other) const {
  return identifier_field_ids_ == other.identifier_field_ids_ && struct_->equals(*other.struct_);
}

bool Schema::operator==(const Schema& other) const {
  return schema_id_ == other.schema_id_ && same_schema(other);
}

Status Schema::validate() const {
  if (!duplicate_ids_.empty()) {
    return invalid_data("schema {}: field id {} is used more than once", schema_id_,
                        duplicate_ids_.front());
  }
  for (int32_t id : identifier_field_ids_) {
    const NestedField* f = find_field(id);
    if (f == nullptr) {
      return invalid_data("schema {}: identifier field id {} is not in the schema", schema_id_, id);
    }
    if (!f->type->is_primitive()) {
      return invalid_data("schema {}: identifier field '{}' must be a primitive", schema_id_,
                          f->name);
    }
    if (!f->required) {
      return invalid_data("schema {}: identifier field '{}' must be required", schema_id_, f->name);
    }
    if (f->type->id() == TypeId::kFloat || f->type->id() == TypeId::kDouble) {
      return invalid_data("schema {}: identifier field '{}' cannot be float or double", schema_id_,
                          f->name);
    }
    // Every ancestor must be a struct (not a list or map).
    for (auto p = parent_id(id); p; p = parent_id(*p)) {
      const NestedField* pf = find_field(*p);
      if (pf != nullptr && !pf->type->is_struct()) {
        return invalid_data("schema {}: identifier field '{}' cannot be nested in a list or map",
                            schema_id_, f->name);
      }
    }
  }
  return Status::OK();
}

}  // namespace floe
