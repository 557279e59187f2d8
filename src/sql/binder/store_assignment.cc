#include <fmt/format.h>

#include "floe/util/strings.h"
#include "floe/util/utf8.h"
#include "sql/binder/binder_internal.h"
#include "sql/binder/store_assignment_internal.h"
#include "sql/exec/bound_expr_internal.h"
#include "sql/functions/function_internal.h"

namespace floe::sql {

namespace {

// The text of a refused value for an error: Spark's text, cut short.
std::string value_for_error(const ColumnVector& col, int64_t row) {
  std::string text;
  internal::value_text(col, row, &text);
  if (utf8_count(text) > 100) text = std::string(utf8_truncate(text, 100)) + "...";
  return text;
}

// Why `to` cannot hold the value at `row` of `from`.
std::string refusal(const ColumnVector& from, int64_t row, const Type& to) {
  if (from.type_id() == TypeId::kString) {
    return fmt::format("'{}' is not a valid {}", value_for_error(from, row), spark_type_name(to));
  }
  return fmt::format("the {} value {} does not fit in {}", spark_type_name(*from.type()),
                     value_for_error(from, row), spark_type_name(to));
}

// The projection INSERT and CTAS write through: each table column takes an input column, a
// constant or a default, stored with ANSI store assignment; the first value a column cannot
// hold stops the write with the row (1-based, in the order the query produces rows) and the
// column.
class StoreAssignNode : public PlanNode {
 public:
  struct Column {
    int source = -1;        // input column, or -1 for `constant`
    BoundExprPtr constant;  // already of the column's type
    TypePtr type;           // the table column's type
    bool convert = false;   // the input column's type differs
  };

  StoreAssignNode(PlanPtr input, std::vector<NestedField> fields, std::vector<Column> columns,
                  std::string table)
      : input_(std::move(input)), columns_(std::move(columns)), table_(std::move(table)) {
    fields_ = std::move(fields);
  }

  Status execute(ExecContext& ctx, const BatchSink& sink) override {
    int64_t rows_before = 0;
    return input_->execute(ctx, [&](ColumnBatch&& b) -> Status {
      ColumnBatch out;
      out.fields = fields_;
      out.num_rows = b.num_rows;
      out.columns.reserve(columns_.size());
      for (size_t c = 0; c < columns_.size(); ++c) {
        const Column& col = columns_[c];
        if (col.source < 0) {
          out.columns.push_back(FLOE_TRY(evaluate(*col.constant, b)));
          continue;
        }
        const ColumnPtr& in = b.columns[col.source];
        if (!col.convert) {
          out.columns.push_back(in);
          continue;
        }
        AssignFailure failure;
        ColumnPtr v = FLOE_TRY(store_assign(in, col.type, &failure));
        if (!v) {
          return invalid_data("cannot write to {}: row {}, column `{}`: {}", table_,
                              rows_before + failure.row + 1, fields_[c].name, failure.reason);
        }
        out.columns.push_back(std::move(v));
      }
      rows_before += b.num_rows;
      return sink(std::move(out));
    });
  }

  std::string describe() const override {
    std::string out = "StoreAssign " + table_ + " [";
    for (size_t i = 0; i < fields_.size(); ++i) {
      if (i) out += ", ";
      out += fields_[i].name;
    }
    return out + "]";
  }
  std::vector<const PlanNode*> inputs() const override { return {input_.get()}; }

 private:
  PlanPtr input_;
  std::vector<Column> columns_;
  std::string table_;
};

bool is_number(TypeId id) {
  return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kFloat ||
         id == TypeId::kDouble || id == TypeId::kDecimal;
}

bool is_datetime(TypeId id) {
  return id == TypeId::kDate || id == TypeId::kTimestamp || id == TypeId::kTimestampTz ||
         id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs;
}

std::string column_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "`" : ", `") + n + "`";
  return out;
}

}  // namespace

bool can_store_assign(const Type& from, const Type& to) {
  TypeId f = from.id(), t = to.id();
  if (f == TypeId::kUnknown) return true;
  if (from.is_primitive() && to.is_primitive()) {
    if (f == t && f != TypeId::kDecimal && f != TypeId::kFixed) return true;
    if (is_number(f) && is_number(t)) return true;
    if (t == TypeId::kString) return true;
    if (is_datetime(f) && is_datetime(t)) return true;
    if (f == TypeId::kString && (is_datetime(t) || t == TypeId::kTime || t == TypeId::kUuid)) {
      return true;
    }
    if (f == TypeId::kFixed && t == TypeId::kFixed) return from == to;
    if ((f == TypeId::kFixed || f == TypeId::kUuid) && t == TypeId::kBinary) return true;
    if (f == TypeId::kBinary && (t == TypeId::kFixed || t == TypeId::kUuid)) return true;
    return false;
  }
  if (f != t) return false;
  if (from.is_struct()) {
    const auto& ff = from.fields();
    const auto& tf = to.fields();
    if (ff.size() != tf.size()) return false;
    for (size_t i = 0; i < ff.size(); ++i) {
      if (!can_store_assign(*ff[i].type, *tf[i].type)) return false;
    }
    return true;
  }
  if (from.is_list()) return can_store_assign(*from.element().type, *to.element().type);
  return can_store_assign(*from.key().type, *to.key().type) &&
         can_store_assign(*from.value().type, *to.value().type);
}

Result<ColumnPtr> store_assign(const ColumnPtr& in, const TypePtr& to, AssignFailure* failure) {
  if (same_type(in->type(), to)) return in;
  if (in->type_id() == TypeId::kUnknown) {
    ColumnPtr nulls = ColumnVector::make(to);
    for (int64_t i = 0; i < in->length(); ++i) nulls->append_null();
    return nulls;
  }
  const int64_t n = in->length();
  Datum from{in, false};
  Datum out = FLOE_TRY(internal::cast_datum(from, to, n));
  int64_t bad = internal::first_refused(from, out, 0, n);
  if (bad >= 0) {
    failure->row = bad;
    failure->reason = refusal(*in, bad, *to);
    return ColumnPtr();
  }
  return internal::to_column(out, n);
}

Result<Literal> store_assign_value(const Literal& value, const TypePtr& to,
                                   std::string_view table_name, std::string_view column) {
  if (value.is_null()) return Literal::null(to);
  if (*value.type() == *to) return value;
  // A partition spec's values are text in Spark (PARTITION (k = '5')): a string constant is
  // parsed as the column's type, strictly.
  const bool parse = value.type()->id() == TypeId::kString && to->is_primitive();
  if (!parse && !can_store_assign(*value.type(), *to)) {
    return invalid_argument("cannot write to {}: cannot safely cast `{}`: {} to {}", table_name,
                            column, spark_type_name(*value.type()), spark_type_name(*to));
  }
  ColumnPtr one = ColumnVector::make(value.type());
  FLOE_TRY(one->append_literal(value));
  AssignFailure failure;
  ColumnPtr v = FLOE_TRY(store_assign(one, to, &failure));
  if (!v) {
    return invalid_data("cannot write to {}: column `{}`: {}", table_name, column, failure.reason);
  }
  return v->literal_at(0);
}

Result<PlanPtr> project_to_schema(PlanPtr input, const Schema& schema,
                                  const std::vector<std::string>& columns,
                                  std::string_view table_name,
                                  const std::vector<std::pair<std::string, BoundExprPtr>>& fixed) {
  const std::vector<NestedField>& table_fields = schema.fields();
  const std::vector<NestedField>& data_fields = input->fields();
  std::vector<std::string> table_names, data_names;
  for (const auto& f : table_fields) table_names.push_back(f.name);
  for (const auto& f : data_fields) data_names.push_back(f.name);

  // A constant per table column (static partition values), else nullptr.
  std::vector<BoundExprPtr> constant(table_fields.size());
  for (const auto& [name, value] : fixed) {
    size_t t = 0;
    while (t < table_fields.size() && !iequals(table_fields[t].name, name)) ++t;
    if (t == table_fields.size()) {
      return invalid_argument("cannot write to {}: no column `{}` (table columns: {})", table_name,
                              name, column_list(table_names));
    }
    constant[t] = value;
  }
  // Which input column feeds each table column (-1: none).
  std::vector<int> source(table_fields.size(), -1);
  if (columns.empty()) {
    std::vector<std::string> open_names;
    for (size_t t = 0; t < table_fields.size(); ++t) {
      if (!constant[t]) open_names.push_back(table_fields[t].name);
    }
    if (data_fields.size() != open_names.size()) {
      return invalid_argument(
          "cannot write to {}: {} data columns: table columns: {}; data columns: {}", table_name,
          data_fields.size() < open_names.size() ? "not enough" : "too many",
          column_list(open_names), column_list(data_names));
    }
    int next = 0;
    for (size_t t = 0; t < source.size(); ++t) {
      if (!constant[t]) source[t] = next++;
    }
  } else {
    if (columns.size() != data_fields.size()) {
      return invalid_argument("cannot write to {}: {} columns are listed but the query gives {}",
                              table_name, columns.size(), data_fields.size());
    }
    for (size_t c = 0; c < columns.size(); ++c) {
      size_t t = 0;
      while (t < table_fields.size() && !iequals(table_fields[t].name, columns[c])) ++t;
      if (t == table_fields.size()) {
        return invalid_argument("cannot write to {}: no column `{}` (table columns: {})",
                                table_name, columns[c], column_list(table_names));
      }
      if (source[t] >= 0) {
        return invalid_argument("cannot write to {}: column `{}` is listed twice", table_name,
                                columns[c]);
      }
      source[t] = static_cast<int>(c);
    }
  }

  std::vector<StoreAssignNode::Column> plan(table_fields.size());
  for (size_t t = 0; t < table_fields.size(); ++t) {
    const NestedField& target = table_fields[t];
    StoreAssignNode::Column& c = plan[t];
    c.type = target.type;
    if (constant[t]) {
      if (source[t] >= 0) {
        return invalid_argument("cannot write to {}: column `{}` has a static value and is listed",
                                table_name, target.name);
      }
      Literal v = FLOE_TRY(evaluate_constant(*constant[t]));
      c.constant =
          FLOE_TRY(literal(FLOE_TRY(store_assign_value(v, target.type, table_name, target.name))));
    } else if (source[t] < 0) {
      if (target.required) {
        return invalid_argument("cannot write to {}: required column `{}` has no value", table_name,
                                target.name);
      }
      Literal v = target.write_default ? *target.write_default : Literal::null(target.type);
      c.constant =
          FLOE_TRY(literal(FLOE_TRY(store_assign_value(v, target.type, table_name, target.name))));
    } else {
      const NestedField& from = data_fields[source[t]];
      if (!can_store_assign(*from.type, *target.type)) {
        return invalid_argument("cannot write to {}: cannot safely cast `{}`: {} to {}", table_name,
                                target.name, spark_type_name(*from.type),
                                spark_type_name(*target.type));
      }
      c.source = source[t];
      c.convert = !same_type(from.type, target.type);
    }
  }
  PlanPtr node = std::make_unique<StoreAssignNode>(std::move(input), table_fields, std::move(plan),
                                                   std::string(table_name));
  return node;
}

}  // namespace floe::sql
