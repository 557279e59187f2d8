#include "floe/spec/partition_spec.h"

#include <algorithm>
#include <unordered_set>

namespace floe {

std::shared_ptr<const PartitionSpec> PartitionSpec::unpartitioned(int32_t spec_id) {
  return std::make_shared<const PartitionSpec>(spec_id, std::vector<PartitionField>{});
}

bool PartitionSpec::is_unpartitioned() const {
  return std::all_of(fields_.begin(), fields_.end(),
                     [](const PartitionField& f) { return f.transform.is_void(); });
}

int32_t PartitionSpec::last_assigned_field_id() const {
  int32_t last = kUnpartitionedLastAssignedId;
  for (const auto& f : fields_) last = std::max(last, f.field_id);
  return fields_.empty() ? kUnpartitionedLastAssignedId : last;
}

Result<TypePtr> PartitionSpec::partition_type(const Schema& schema) const {
  std::vector<NestedField> out;
  out.reserve(fields_.size());
  for (const auto& f : fields_) {
    NestedField pf;
    pf.id = f.field_id;
    pf.name = f.name;
    pf.required = false;
    const NestedField* source = schema.find_field(f.source_id);
    if (f.transform.is_unknown()) {
      pf.type = Type::string();
    } else if (source == nullptr) {
      if (!f.transform.is_void()) {
        return invalid_data(
            "partition spec {}: field '{}' refers to source id {}, which is not "
            "in schema {}",
            spec_id_, f.name, f.source_id, schema.schema_id());
      }
      // A void field whose column was dropped: its values are always null.
      pf.type = Type::unknown();
    } else {
      pf.type = FLOE_TRY_CTX(f.transform.result_type(source->type),
                             fmt::format("partition spec {}: field '{}'", spec_id_, f.name));
    }
    out.push_back(std::move(pf));
  }
  return Type::struct_of(std::move(out));
}

std::string PartitionSpec::partition_to_path(const std::vector<Literal>& values) const {
  std::string out;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i) out += '/';
    const auto& f = fields_[i];
    std::string value =
        i < values.size() ? f.transform.to_human_string(values[i]) : std::string("null");
    out += url_encode_form(f.name);
    out += '=';
    out += url_encode_form(value);
  }
  return out;
}

bool PartitionSpec::compatible_with(const PartitionSpec& other) const {
  if (fields_.size() != other.fields_.size()) return false;
  for (size_t i = 0; i < fields_.size(); ++i) {
    const auto& a = fields_[i];
    const auto& b = other.fields_[i];
    if (a.source_id != b.source_id || a.source_ids != b.source_ids ||
        a.transform.to_string() != b.transform.to_string()) {
      return false;
    }
  }
  return true;
}

namespace {

std::string suffix_of(const Transform& t) {
  switch (t.kind()) {
    case Transform::Kind::kYear:
      return "year";
    case Transform::Kind::kMonth:
      return "month";
    case Transform::Kind::kDay:
      return "day";
    case Transform::Kind::kHour:
      return "hour";
    case Transform::Kind::kVoid:
      return "null";
    default:
      return t.to_string();
  }
}

}  // namespace

std::string PartitionSpec::default_field_name(const std::string& source_name, const Transform& t) {
  switch (t.kind()) {
    case Transform::Kind::kIdentity:
      return source_name;
    case Transform::Kind::kBucket:
      return source_name + "_bucket";
    case Transform::Kind::kTruncate:
      return source_name + "_trunc";
    default:
      return source_name + "_" + suffix_of(t);
  }
}

std::string PartitionSpec::evolution_field_name(const std::string& source_name,
                                                const Transform& t) {
  switch (t.kind()) {
    case Transform::Kind::kBucket:
      return fmt::format("{}_bucket_{}", source_name, t.param());
    case Transform::Kind::kTruncate:
      return fmt::format("{}_trunc_{}", source_name, t.param());
    default:
      return default_field_name(source_name, t);
  }
}

Status PartitionSpec::validate(const Schema& schema) const {
  std::unordered_set<int32_t> ids;
  std::unordered_set<std::string> names;
  for (const auto& f : fields_) {
    if (!ids.insert(f.field_id).second) {
      return invalid_data("partition spec {}: field id {} is used more than once", spec_id_,
                          f.field_id);
    }
    if (f.name.empty()) {
      return invalid_data("partition spec {}: field {} has an empty name", spec_id_, f.field_id);
    }
    if (!names.insert(f.name).second) {
      return invalid_data("partition spec {}: field name '{}' is used more than once", spec_id_,
                          f.name);
    }
    std::vector<int32_t> sources =
        f.source_ids.empty() ? std::vector<int32_t>{f.source_id} : f.source_ids;
    for (int32_t source_id : sources) {
      const NestedField* source = schema.find_field(source_id);
      if (source == nullptr) {
        if (f.transform.is_void()) continue;
        return invalid_data(
            "partition spec {}: field '{}' refers to source id {}, which is not in "
            "schema {}",
            spec_id_, f.name, source_id, schema.schema_id());
      }
      if (!f.transform.is_unknown() && !f.transform.can_transform(*source->type)) {
        return invalid_data(
            "partition spec {}: field '{}': transform {} cannot be applied to "
            "source '{}' of type {}",
            spec_id_, f.name, f.transform.to_string(), source->name, source->type->to_string());
      }
    }
  }
  return Status::OK();
}

std::string url_encode_form(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
        c == '-' || c == '*' || c == '_') {
      out.push_back(ch);
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
  return out;
}

}  // namespace floe
