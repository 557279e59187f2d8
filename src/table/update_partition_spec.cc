// Partition evolution (floe/table/update_partition_spec.h): the recorded operations are replayed
// on every application against the latest base, as Java's BaseUpdatePartitionSpec applies them
// to the spec it started from.
#include "floe/table/update_partition_spec.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <variant>

#include "floe/table/table.h"

namespace floe {

namespace {

struct AddOp {
  std::string source;
  Transform transform;
  std::string name;
};
struct RemoveByName {
  std::string name;
};
struct RemoveByTerm {
  std::string source;
  Transform transform;
};
struct RenameOp {
  std::string name, new_name;
};
using Op = std::variant<AddOp, RemoveByName, RemoveByTerm, RenameOp>;

std::string describe(const PartitionField& f) {
  return fmt::format("{}: {}({}) (field id {})", f.name, f.transform.to_string(), f.source_id,
                     f.field_id);
}

// One application: the builder state of Java's BaseUpdatePartitionSpec.
class Builder {
 public:
  Builder(const TableMetadata& base, bool case_sensitive)
      : base_(base), case_sensitive_(case_sensitive), last_id_(base.last_partition_id) {}

  Status init() {
    schema_ = base_.schema();
    spec_ = base_.spec();
    if (!schema_ || !spec_) return invalid_argument("the table has no current schema or spec");
    for (const auto& f : spec_->fields()) {
      if (f.transform.is_unknown()) {
        return not_supported("cannot update partition spec {}: field {} has an unknown transform",
                             spec_->spec_id(), describe(f));
      }
      by_name_[f.name] = f;
      by_term_[{f.source_id, f.transform.to_string()}] = f;
    }
    return Status::OK();
  }

  Status add(const AddOp& op) {
    if (!op.name.empty() && added_by_name_.count(op.name)) {
      return invalid_argument("Cannot add duplicate partition field: {}",
                              describe(added_by_name_.at(op.name)));
    }
    const NestedField* source = FLOE_TRY(resolve(op.source));
    if (!op.transform.can_transform(*source->type)) {
      return invalid_argument("Cannot partition by {}({}): {} does not apply to type {}",
                              op.transform.to_string(), op.source, op.transform.to_string(),
                              source->type->to_string());
    }
    const std::pair<int32_t, std::string> key{source->id, op.transform.to_string()};
    auto existing = by_term_.find(key);
    if (existing != by_term_.end() && deletes_.count(existing->second.field_id)) {
      // Removed and added back in one update: the removal is undone (under the new name).
      const PartitionField f = existing->second;
      deletes_.erase(f.field_id);
      if (!op.name.empty() && op.name != f.name) renames_[f.name] = op.name;
      return Status::OK();
    }
    if (existing != by_term_.end()) {
      return invalid_argument("Cannot add duplicate partition field {}: conflicts with {}",
                              op.name.empty() ? key.second : op.name, describe(existing->second));
    }
    if (added_by_term_.count(key)) {
      return invalid_argument("Cannot add duplicate partition field {}({}): already added",
                              op.transform.to_string(), op.source);
    }
    PartitionField field = recycle_or_create(source->id, op.transform, op.name);
    if (field.name.empty()) {
      std::string source_name = schema_->find_column_name(source->id).value_or(source->name);
      field.name = PartitionSpec::evolution_field_name(source_name, op.transform);
    }
    if (op.transform.is_time()) {
      auto t = added_time_.find(source->id);
      if (t != added_time_.end()) {
        return invalid_argument("Cannot add redundant partition field: {} conflicts with {}",
                                describe(field), describe(t->second));
      }
      added_time_[source->id] = field;
    }
    added_by_term_[key] = field;
    auto named = by_name_.find(field.name);
    if (named != by_name_.end() && !deletes_.count(named->second.field_id)) {
      if (named->second.transform.is_void()) {
        // A v1 removed field in the way: it steps aside.
        renames_[named->second.name] =
            fmt::format("{}_{}", named->second.name, named->second.field_id);
      } else {
        return invalid_argument("Cannot add duplicate partition field name: {}", field.name);
      }
    } else if (named != by_name_.end()) {
      renames_[named->second.name] =
          fmt::format("{}_{}", named->second.name, named->second.field_id);
    }
    if (added_by_name_.count(field.name)) {
      return invalid_argument("Cannot add duplicate partition field name: {}", field.name);
    }
    added_by_name_[field.name] = field;
    adds_.push_back(field);
    return Status::OK();
  }

  Status remove_by_name(const std::string& name) {
    if (added_by_name_.count(name)) {
      return invalid_argument("Cannot delete newly added field: {}", name);
    }
    if (renames_.count(name)) {
      return invalid_argument("Cannot rename and delete partition field: {}", name);
    }
    auto it = by_name_.find(name);
    if (it == by_name_.end()) {
      return invalid_argument("Cannot find partition field to remove: {} (fields: {})", name,
                              field_names());
    }
    deletes_.insert(it->second.field_id);
    return Status::OK();
  }

  Status remove_by_term(const RemoveByTerm& op) {
    const NestedField* source = FLOE_TRY(resolve(op.source));
    const std::pair<int32_t, std::string> key{source->id, op.transform.to_string()};
    if (added_by_term_.count(key)) {
      return invalid_argument("Cannot delete newly added field: {}({})", op.transform.to_string(),
                              op.source);
    }
    auto it = by_term_.find(key);
    if (it == by_term_.end()) {
      return invalid_argument("Cannot find partition field to remove: {}({}) (fields: {})",
                              op.transform.to_string(), op.source, field_names());
    }
    if (renames_.count(it->second.name)) {
      return invalid_argument("Cannot rename and delete partition field: {}", it->second.name);
    }
    deletes_.insert(it->second.field_id);
    return Status::OK();
  }

  Status rename(const RenameOp& op) {
    auto in_the_way = by_name_.find(op.new_name);
    if (in_the_way != by_name_.end() && in_the_way->second.transform.is_void()) {
      renames_[in_the_way->second.name] =
          fmt::format("{}_{}", in_the_way->second.name, in_the_way->second.field_id);
    }
    if (added_by_name_.count(op.name)) {
      return invalid_argument("Cannot rename newly added partition field: {}", op.name);
    }
    auto it = by_name_.find(op.name);
    if (it == by_name_.end()) {
      return invalid_argument("Cannot find partition field to rename: {} (fields: {})", op.name,
                              field_names());
    }
    if (deletes_.count(it->second.field_id)) {
      return invalid_argument("Cannot delete and rename partition field: {}", op.name);
    }
    renames_[op.name] = op.new_name;
    return Status::OK();
  }

  // The new spec's fields, in Java's order: the kept (renamed) fields, v1's removed ones as
  // void, then the added ones.
  std::vector<PartitionField> fields() const {
    std::vector<PartitionField> out;
    for (const auto& f : spec_->fields()) {
      PartitionField g = f;
      auto r = renames_.find(f.name);
      if (r != renames_.end()) g.name = r->second;
      if (deletes_.count(f.field_id)) {
        if (base_.format_version >= 2) continue;
        g.transform = Transform::void_transform();
      }
      out.push_back(std::move(g));
    }
    out.insert(out.end(), adds_.begin(), adds_.end());
    return out;
  }

  int32_t last_id() const { return last_id_; }
  const Schema& schema() const { return *schema_; }

 private:
  Result<const NestedField*> resolve(const std::string& source) const {
    const NestedField* f = schema_->find_field(source, case_sensitive_);
    if (!f) return invalid_argument("Cannot find source column for partition field: {}", source);
    return f;
  }

  // v2+: the field of any spec with this source and transform (and name, when given).
  PartitionField recycle_or_create(int32_t source_id, const Transform& transform,
                                   const std::string& name) {
    if (base_.format_version >= 2) {
      for (const auto& spec : base_.specs) {
        for (const auto& f : spec->fields()) {
          if (f.source_id == source_id && f.transform == transform &&
              (name.empty() || f.name == name)) {
            return f;
          }
        }
      }
    }
    PartitionField f;
    f.source_id = source_id;
    f.field_id = ++last_id_;
    f.name = name;
    f.transform = transform;
    return f;
  }

  std::string field_names() const {
    std::string out;
    for (const auto& f : spec_->fields()) out += (out.empty() ? "" : ", ") + f.name;
    return out.empty() ? "none" : out;
  }

  const TableMetadata& base_;
  bool case_sensitive_;
  int32_t last_id_;
  const Schema* schema_ = nullptr;
  const PartitionSpec* spec_ = nullptr;
  std::map<std::string, PartitionField> by_name_;
  std::map<std::pair<int32_t, std::string>, PartitionField> by_term_;
  std::map<std::string, PartitionField> added_by_name_;
  std::map<std::pair<int32_t, std::string>, PartitionField> added_by_term_;
  std::map<int32_t, PartitionField> added_time_;
  std::vector<PartitionField> adds_;
  std::set<int32_t> deletes_;
  std::map<std::string, std::string> renames_;
};

// Same fields but for field ids (Java's compatibleWith: sources, transforms and names).
bool equivalent(const std::vector<PartitionField>& a, const PartitionSpec& b) {
  if (a.size() != b.fields().size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const auto& x = a[i];
    const auto& y = b.fields()[i];
    if (x.source_id != y.source_id || x.source_ids != y.source_ids || x.name != y.name ||
        x.transform.to_string() != y.transform.to_string()) {
      return false;
    }
  }
  return true;
}

}  // namespace

struct UpdatePartitionSpec::Impl : PendingUpdate {
  std::vector<Op> ops;
  bool case_sensitive = false;
  bool make_default = true;

  Result<TableMetadata> apply(const TableMetadata& base) override {
    Builder b(base, case_sensitive);
    FLOE_TRY(b.init());
    for (const auto& op : ops) {
      if (const auto* add = std::get_if<AddOp>(&op)) {
        FLOE_TRY(b.add(*add));
      } else if (const auto* by_name = std::get_if<RemoveByName>(&op)) {
        FLOE_TRY(b.remove_by_name(by_name->name));
      } else if (const auto* by_term = std::get_if<RemoveByTerm>(&op)) {
        FLOE_TRY(b.remove_by_term(*by_term));
      } else {
        FLOE_TRY(b.rename(std::get<RenameOp>(op)));
      }
    }
    std::vector<PartitionField> fields = b.fields();
    // Java's PartitionSpec.Builder: a partition name may be a column's only for an identity
    // field of that column.
    for (const auto& f : fields) {
      const NestedField* column = b.schema().find_field(f.name, true);
      if (column && !f.transform.is_void() &&
          !(f.transform.is_identity() && column->id == f.source_id)) {
        return invalid_argument(
            "Cannot create partition field '{}' ({}): a column of the schema has that name", f.name,
            f.transform.to_string());
      }
    }
    TableMetadata m = base;
    int32_t spec_id = -1, next_id = 0;
    for (const auto& spec : base.specs) {
      if (spec_id < 0 && equivalent(fields, *spec)) spec_id = spec->spec_id();
      next_id = std::max(next_id, spec->spec_id() + 1);
    }
    if (spec_id < 0) {
      auto spec = std::make_shared<const PartitionSpec>(next_id, std::move(fields));
      FLOE_TRY(spec->validate(b.schema()));
      m.specs.push_back(spec);
      spec_id = next_id;
      m.last_partition_id =
          std::max({m.last_partition_id, b.last_id(), spec->last_assigned_field_id()});
    }
    if (make_default) m.default_spec_id = spec_id;
    return m;
  }
};

UpdatePartitionSpec::UpdatePartitionSpec(Transaction txn, bool auto_commit)
    : impl_(std::make_shared<Impl>()), txn_(std::move(txn)), auto_commit_(auto_commit) {}

UpdatePartitionSpec& UpdatePartitionSpec::add_field(const std::string& source, Transform transform,
                                                    const std::string& name) {
  impl_->ops.push_back(AddOp{source, std::move(transform), name});
  return *this;
}
UpdatePartitionSpec& UpdatePartitionSpec::remove_field(const std::string& name) {
  impl_->ops.push_back(RemoveByName{name});
  return *this;
}
UpdatePartitionSpec& UpdatePartitionSpec::remove_field(const std::string& source,
                                                       Transform transform) {
  impl_->ops.push_back(RemoveByTerm{source, std::move(transform)});
  return *this;
}
UpdatePartitionSpec& UpdatePartitionSpec::rename_field(const std::string& name,
                                                       const std::string& new_name) {
  impl_->ops.push_back(RenameOp{name, new_name});
  return *this;
}
UpdatePartitionSpec& UpdatePartitionSpec::case_sensitive(bool value) {
  impl_->case_sensitive = value;
  return *this;
}
UpdatePartitionSpec& UpdatePartitionSpec::add_non_default_spec() {
  impl_->make_default = false;
  return *this;
}

UpdatePartitionSpec Transaction::update_spec() { return UpdatePartitionSpec(*this, false); }
UpdatePartitionSpec Table::update_spec() { return UpdatePartitionSpec(new_transaction(), true); }

Status UpdatePartitionSpec::commit() {
  FLOE_TRY(txn_.stage(impl_));
  return auto_commit_ ? txn_.commit() : Status::OK();
}

}  // namespace floe
