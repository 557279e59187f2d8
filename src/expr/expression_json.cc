// Expressions to and from the REST catalog's JSON (see floe/expr/expression_json.h). Values go
// through Literal's JSON single-value serialization (src/spec/literal.cc).
#include "floe/expr/expression_json.h"

#include <cctype>
#include <cstdint>
#include <limits>
#include <string>

#include "floe/spec/json_text.h"
#include "floe/util/json_depth.h"

namespace floe {

namespace {

using json = nlohmann::json;

struct OperationName {
  Operation op;
  const char* name;
};

constexpr OperationName kOperations[] = {
    {Operation::kTrue, "true"},
    {Operation::kFalse, "false"},
    {Operation::kAnd, "and"},
    {Operation::kOr, "or"},
    {Operation::kNot, "not"},
    {Operation::kIsNull, "is-null"},
    {Operation::kNotNull, "not-null"},
    {Operation::kIsNan, "is-nan"},
    {Operation::kNotNan, "not-nan"},
    {Operation::kLt, "lt"},
    {Operation::kLtEq, "lt-eq"},
    {Operation::kGt, "gt"},
    {Operation::kGtEq, "gt-eq"},
    {Operation::kEq, "eq"},
    {Operation::kNotEq, "not-eq"},
    {Operation::kIn, "in"},
    {Operation::kNotIn, "not-in"},
    {Operation::kStartsWith, "starts-with"},
    {Operation::kNotStartsWith, "not-starts-with"},
};

// "lt-eq", "LT_EQ" and "lt_eq" name the same operation (Java reads them case-insensitively,
// with '_' for '-').
std::optional<Operation> operation_from_name(std::string_view text) {
  std::string key;
  key.reserve(text.size());
  for (char c : text) {
    key.push_back(c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  for (const auto& o : kOperations) {
    if (key == o.name) return o.op;
  }
  return std::nullopt;
}

Status write_term(const Term& term, json* out) {
  if (term.name.empty()) return invalid_argument("cannot write a predicate without a column name");
  if (!term.transform) {
    *out = term.name;
    return Status::OK();
  }
  *out =
      json{{"type", "transform"}, {"transform", term.transform->to_string()}, {"term", term.name}};
  return Status::OK();
}

Status write(const Expression& e, json* out) {
  switch (e.op()) {
    case Operation::kTrue:
      *out = true;
      return Status::OK();
    case Operation::kFalse:
      *out = false;
      return Status::OK();
    case Operation::kAnd:
    case Operation::kOr: {
      json left, right;
      FLOE_TRY(write(*e.left(), &left));
      FLOE_TRY(write(*e.right(), &right));
      *out = json{{"type", rest_operation_name(e.op())},
                  {"left", std::move(left)},
                  {"right", std::move(right)}};
      return Status::OK();
    }
    case Operation::kNot: {
      json child;
      FLOE_TRY(write(*e.child(), &child));
      *out = json{{"type", "not"}, {"child", std::move(child)}};
      return Status::OK();
    }
    default:
      break;
  }
  json term;
  FLOE_TRY(write_term(e.term(), &term));
  json obj = json::object();
  obj["type"] = rest_operation_name(e.op());
  obj["term"] = std::move(term);
  if (is_set_op(e.op())) {
    json values = json::array();
    for (const Literal& v : e.literals()) {
      json value;
      FLOE_TRY_CTX(v.to_json(&value), "column '" + e.term().name + "'");
      values.push_back(std::move(value));
    }
    obj["values"] = std::move(values);
  } else if (!is_unary(e.op())) {
    if (e.literals().size() != 1) {
      return invalid_argument("predicate {} on '{}' has {} values, not one",
                              rest_operation_name(e.op()), e.term().name, e.literals().size());
    }
    json value;
    FLOE_TRY_CTX(e.literal().to_json(&value), "column '" + e.term().name + "'");
    obj["value"] = std::move(value);
  }
  *out = std::move(obj);
  return Status::OK();
}

// Reads JSON into unbound expressions, with the path of the value being read for errors.
class Reader {
 public:
  Reader(const Schema* schema, bool case_sensitive)
      : schema_(schema), case_sensitive_(case_sensitive) {}

  Result<ExprPtr> read(const json& j, const std::string& path, size_t depth) {
    if (depth > kMaxJsonDepth) {
      return invalid_argument("{}: the expression nests deeper than {} levels", path,
                              kMaxJsonDepth);
    }
    if (j.is_boolean()) return j.get<bool>() ? always_true() : always_false();
    if (!j.is_object()) {
      return invalid_argument("{}: expected an expression (an object or a boolean), got {}", path,
                              json_for_message(j));
    }
    const std::string type = FLOE_TRY(string_field(j, "type", path));
    std::string lower;
    for (char c : type)
      lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (lower == "literal") {
      // Java's constant form: {"type": "literal", "value": true}.
      const json& value = *FLOE_TRY(field(j, "value", path));
      if (!value.is_boolean()) {
        return invalid_argument("{}.value: expected true or false, got {}", path,
                                json_for_message(value));
      }
      return value.get<bool>() ? always_true() : always_false();
    }
    std::optional<Operation> op = operation_from_name(type);
    if (!op) return invalid_argument("{}.type: unknown expression type \"{}\"", path, type);
    switch (*op) {
      case Operation::kTrue:
        return always_true();
      case Operation::kFalse:
        return always_false();
      case Operation::kAnd:
      case Operation::kOr: {
        ExprPtr left = FLOE_TRY(read(*FLOE_TRY(field(j, "left", path)), path + ".left", depth + 1));
        ExprPtr right =
            FLOE_TRY(read(*FLOE_TRY(field(j, "right", path)), path + ".right", depth + 1));
        return *op == Operation::kAnd ? make_and(std::move(left), std::move(right))
                                      : make_or(std::move(left), std::move(right));
      }
      case Operation::kNot:
        return make_not(
            FLOE_TRY(read(*FLOE_TRY(field(j, "child", path)), path + ".child", depth + 1)));
      default:
        return read_predicate(*op, j, path);
    }
  }

 private:
  static Result<const json*> field(const json& j, const char* key, const std::string& path) {
    auto it = j.find(key);
    if (it == j.end()) return invalid_argument("{}: missing \"{}\"", path, key);
    return &*it;
  }

  static Result<std::string> string_field(const json& j, const char* key, const std::string& path) {
    const json& v = *FLOE_TRY(field(j, key, path));
    if (!v.is_string()) {
      return invalid_argument("{}.{}: expected a string, got {}", path, key, json_for_message(v));
    }
    return v.get<std::string>();
  }

  // A column name, {"type": "reference", "term": name} or a transform of either.
  Result<Term> read_term(const json& j, const std::string& path, bool allow_transform) {
    if (j.is_string()) {
      Term t;
      t.name = j.get<std::string>();
      if (t.name.empty()) return invalid_argument("{}: the column name is empty", path);
      return t;
    }
    if (!j.is_object()) {
      return invalid_argument("{}: expected a column name or a transform term, got {}", path,
                              json_for_message(j));
    }
    const std::string type = FLOE_TRY(string_field(j, "type", path));
    if (type == "reference") {
      return read_term(*FLOE_TRY(field(j, "term", path)), path + ".term", false);
    }
    if (type != "transform" || !allow_transform) {
      return invalid_argument("{}.type: expected {}, got \"{}\"", path,
                              allow_transform ? "\"transform\" or \"reference\"" : "\"reference\"",
                              type);
    }
    const std::string text = FLOE_TRY(string_field(j, "transform", path));
    auto transform = Transform::parse(text);
    if (!transform.ok()) {
      return invalid_argument("{}.transform: {}", path, transform.status().message());
    }
    if (transform->is_unknown()) {
      return invalid_argument("{}.transform: unknown transform \"{}\"", path, text);
    }
    Term t = FLOE_TRY(read_term(*FLOE_TRY(field(j, "term", path)), path + ".term", false));
    t.transform = *transform;
    return t;
  }

  // The type values of `term` are read as: the column's, or the transform's result type.
  // Null when there is no schema or the column is not in it (binding reports that).
  TypePtr value_type(const Term& term) const {
    if (!schema_) return nullptr;
    const NestedField* f = schema_->find_field(term.name, case_sensitive_);
    if (!f || !f->type || !f->type->is_primitive()) return nullptr;
    if (!term.transform) return f->type;
    if (!term.transform->can_transform(*f->type)) return nullptr;
    auto r = term.transform->result_type(f->type);
    return r.ok() ? *r : nullptr;
  }

  Result<Literal> read_value(const json& raw, const TypePtr& type, const std::string& path) {
    const json* j = &raw;
    if (raw.is_object()) {
      // Java's wrapped form: {"type": "literal", "value": v}.
      auto t = raw.find("type");
      if (t == raw.end() || !t->is_string() || t->get<std::string>() != "literal") {
        return invalid_argument("{}: expected a value or {{\"type\": \"literal\", ...}}, got {}",
                                path, json_for_message(raw));
      }
      j = FLOE_TRY(field(raw, "value", path));
    }
    if (j->is_null()) {
      return invalid_argument("{}: a predicate value cannot be null (use is-null)", path);
    }
    if (type) {
      auto typed = Literal::from_json(type, *j);
      if (typed.ok()) return typed;
    }
    switch (j->type()) {
      case json::value_t::boolean:
        return Literal::boolean(j->get<bool>());
      case json::value_t::number_integer:
        return Literal::int64(j->get<int64_t>());
      case json::value_t::number_unsigned: {
        uint64_t v = j->get<uint64_t>();
        if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
          return invalid_argument("{}: {} is out of the range of a long", path, v);
        }
        return Literal::int64(static_cast<int64_t>(v));
      }
      case json::value_t::number_float:
        return Literal::float64(j->get<double>());
      case json::value_t::string:
        return Literal::string(j->get<std::string>());
      default:
        return invalid_argument("{}: expected a single value, got {}", path, json_for_message(*j));
    }
  }

  Result<ExprPtr> read_predicate(Operation op, const json& j, const std::string& path) {
    Term term = FLOE_TRY(read_term(*FLOE_TRY(field(j, "term", path)), path + ".term", true));
    const bool has_value = j.contains("value");
    const bool has_values = j.contains("values");
    const char* name = rest_operation_name(op);
    if (is_unary(op)) {
      if (has_value || has_values) {
        return invalid_argument("{}: a {} predicate takes no \"{}\"", path, name,
                                has_value ? "value" : "values");
      }
      return make_predicate(op, std::move(term));
    }
    TypePtr type = value_type(term);
    if (is_set_op(op)) {
      if (has_value)
        return invalid_argument("{}: a {} predicate takes \"values\", not \"value\"", path, name);
      const json& values = *FLOE_TRY(field(j, "values", path));
      if (!values.is_array()) {
        return invalid_argument("{}.values: expected an array, got {}", path,
                                json_for_message(values));
      }
      std::vector<Literal> literals;
      literals.reserve(values.size());
      for (size_t i = 0; i < values.size(); ++i) {
        literals.push_back(
            FLOE_TRY(read_value(values[i], type, path + ".values[" + std::to_string(i) + "]")));
      }
      return make_predicate(op, std::move(term), std::move(literals));
    }
    if (has_values)
      return invalid_argument("{}: a {} predicate takes \"value\", not \"values\"", path, name);
    Literal value = FLOE_TRY(read_value(*FLOE_TRY(field(j, "value", path)), type, path + ".value"));
    return make_predicate(op, std::move(term), {std::move(value)});
  }

  const Schema* schema_;
  bool case_sensitive_;
};

}  // namespace

const char* rest_operation_name(Operation op) {
  for (const auto& o : kOperations) {
    if (o.op == op) return o.name;
  }
  return "?";
}

Result<nlohmann::json> expression_to_json(const Expression& expr) {
  json out;
  FLOE_TRY(write(expr, &out));
  return out;
}

Result<ExprPtr> expression_from_json(const nlohmann::json& json, const Schema* schema,
                                     bool case_sensitive, std::string_view where) {
  Reader reader(schema, case_sensitive);
  return reader.read(json, std::string(where), 0);
}

}  // namespace floe
