// The Parquet schema the writer gives an Iceberg schema: field ids on every node but the
// repeated list/key_value groups, 3-level lists and maps, Iceberg types as physical and logical
// types; and the writer's node tree and leaves that go with it.
#include <algorithm>

#include "format/parquet/writer_schema_internal.h"

namespace floe::parquet::internal {

int decimal_flba_length(int precision) {
  static const int kLen[] = {9,  9,  9,  10, 10, 11, 11, 11, 12, 12,
                             13, 13, 13, 14, 14, 15, 15, 16, 16, 16};
  return precision <= 18 ? 8 : kLen[std::min(precision, 38) - 19];
}

Status primitive_element(const Type& t, SchemaElement* e) {
  LogicalType& lt = e->logical_type;
  switch (t.id()) {
    case TypeId::kBoolean:
      e->type = PhysicalType::kBoolean;
      return Status::OK();
    case TypeId::kInt:
      e->type = PhysicalType::kInt32;
      return Status::OK();
    case TypeId::kLong:
      e->type = PhysicalType::kInt64;
      return Status::OK();
    case TypeId::kFloat:
      e->type = PhysicalType::kFloat;
      return Status::OK();
    case TypeId::kDouble:
      e->type = PhysicalType::kDouble;
      return Status::OK();
    case TypeId::kDate:
      e->type = PhysicalType::kInt32;
      lt.kind = LogicalType::kDate;
      e->converted_type = ConvertedType::kDate;
      return Status::OK();
    case TypeId::kTime:
      e->type = PhysicalType::kInt64;
      lt.kind = LogicalType::kTime;
      lt.unit = TimeUnit::kMicros;
      lt.adjusted_to_utc = false;
      e->converted_type = ConvertedType::kTimeMicros;
      return Status::OK();
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      e->type = PhysicalType::kInt64;
      lt.kind = LogicalType::kTimestamp;
      bool ns = t.id() == TypeId::kTimestampNs || t.id() == TypeId::kTimestampTzNs;
      lt.unit = ns ? TimeUnit::kNanos : TimeUnit::kMicros;
      lt.adjusted_to_utc = t.id() == TypeId::kTimestampTz || t.id() == TypeId::kTimestampTzNs;
      // The converted type implies UTC; write it only where it is true.
      if (!ns && lt.adjusted_to_utc) e->converted_type = ConvertedType::kTimestampMicros;
      return Status::OK();
    }
    case TypeId::kString:
      e->type = PhysicalType::kByteArray;
      lt.kind = LogicalType::kString;
      e->converted_type = ConvertedType::kUtf8;
      return Status::OK();
    case TypeId::kBinary:
      e->type = PhysicalType::kByteArray;
      return Status::OK();
    case TypeId::kUuid:
      e->type = PhysicalType::kFixedLenByteArray;
      e->type_length = 16;
      lt.kind = LogicalType::kUuid;
      return Status::OK();
    case TypeId::kFixed:
      e->type = PhysicalType::kFixedLenByteArray;
      e->type_length = t.length();
      return Status::OK();
    case TypeId::kDecimal:
      if (t.precision() <= 9) {
        e->type = PhysicalType::kInt32;
      } else if (t.precision() <= 18) {
        e->type = PhysicalType::kInt64;
      } else {
        e->type = PhysicalType::kFixedLenByteArray;
        e->type_length = decimal_flba_length(t.precision());
      }
      lt.kind = LogicalType::kDecimal;
      lt.precision = t.precision();
      lt.scale = t.scale();
      e->converted_type = ConvertedType::kDecimal;
      e->precision = t.precision();
      e->scale = t.scale();
      return Status::OK();
    default:
      return not_supported("writing {} columns to Parquet is not supported", t.to_string());
  }
}

Status add_field(const NestedField& f, int16_t def, int16_t rep, bool in_rep,
                 std::vector<std::string> path, const std::string& name,
                 const MetricsConfig& metrics, WNode* node, std::vector<WLeaf>* leaves,
                 std::vector<SchemaElement>* schema) {
  node->optional = !f.required;
  node->required_field = f.required;
  int16_t d = static_cast<int16_t>(def + (f.required ? 0 : 1));
  SchemaElement e;
  e.name = name;
  e.repetition = f.required ? Repetition::kRequired : Repetition::kOptional;
  e.field_id = f.id;
  path.push_back(name);
  const Type& t = *f.type;
  if (t.is_primitive()) {
    FLOE_TRY(primitive_element(t, &e));
    node->kind = WNode::kPrim;
    node->leaf = static_cast<int>(leaves->size());
    node->leaves.push_back(node->leaf);
    WLeaf l;
    l.field_id = f.id;
    l.path = path;
    l.type = f.type;
    l.physical = *e.type;
    l.type_length = e.type_length;
    l.width = ColumnVector::value_width(t);
    l.max_def = d;
    l.max_rep = rep;
    l.in_repeated = in_rep;
    l.mode = metrics.mode(f.id);
    l.page = ColumnVector::make(f.type);
    leaves->push_back(std::move(l));
    schema->push_back(std::move(e));
    return Status::OK();
  }
  if (t.is_struct()) {
    node->kind = WNode::kStruct;
    e.num_children = static_cast<int32_t>(t.fields().size());
    if (e.num_children == 0) return not_supported("empty struct {} cannot be written", name);
    schema->push_back(std::move(e));
    for (const auto& c : t.fields()) {
      WNode child;
      FLOE_TRY(add_field(c, d, rep, in_rep, path, c.name, metrics, &child, leaves, schema));
      node->leaves.insert(node->leaves.end(), child.leaves.begin(), child.leaves.end());
      node->children.push_back(std::move(child));
    }
    return Status::OK();
  }
  bool is_list = t.is_list();
  node->kind = is_list ? WNode::kList : WNode::kMap;
  node->rep = static_cast<int16_t>(rep + 1);
  e.num_children = 1;
  e.converted_type = is_list ? ConvertedType::kList : ConvertedType::kMap;
  e.logical_type.kind = is_list ? LogicalType::kList : LogicalType::kMap;
  schema->push_back(std::move(e));
  SchemaElement r;
  r.name = is_list ? "list" : "key_value";
  r.repetition = Repetition::kRepeated;
  r.num_children = is_list ? 1 : 2;
  schema->push_back(std::move(r));
  path.push_back(is_list ? "list" : "key_value");
  int16_t ed = static_cast<int16_t>(d + 1);
  int16_t er = static_cast<int16_t>(rep + 1);
  if (is_list) {
    WNode child;
    FLOE_TRY(
        add_field(t.element(), ed, er, true, path, "element", metrics, &child, leaves, schema));
    node->leaves = child.leaves;
    node->children.push_back(std::move(child));
  } else {
    NestedField key = t.key();
    key.required = true;
    WNode kn, vn;
    FLOE_TRY(add_field(key, ed, er, true, path, "key", metrics, &kn, leaves, schema));
    FLOE_TRY(add_field(t.value(), ed, er, true, path, "value", metrics, &vn, leaves, schema));
    node->leaves = kn.leaves;
    node->leaves.insert(node->leaves.end(), vn.leaves.begin(), vn.leaves.end());
    node->children.push_back(std::move(kn));
    node->children.push_back(std::move(vn));
  }
  return Status::OK();
}

}  // namespace floe::parquet::internal
