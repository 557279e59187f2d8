// Expressions as the Iceberg REST catalog's JSON (REST OpenAPI spec, "Expression"; the filter
// of a scan plan request and the residual filter of a file scan task):
//   true / false                                    always true / always false
//   {"type": "and"|"or", "left": e, "right": e}     {"type": "not", "child": e}
//   {"type": "lt", "term": t, "value": v}           also lt-eq, gt, gt-eq, eq, not-eq,
//                                                   starts-with, not-starts-with
//   {"type": "in", "term": t, "values": [v, ...]}   also not-in
//   {"type": "is-null", "term": t}                  also not-null, is-nan, not-nan
// A term is a column name ("id", "address.zip") or a transform of one
// ({"type": "transform", "transform": "bucket[16]", "term": "id"}); values use the spec's JSON
// single-value serialization (Appendix "JSON single-value serialization").
//
// Writing: constants as the JSON booleans true and false, as Java's ExpressionParser and
// PyIceberg write them (the OpenAPI document also describes {"type": "true"}; both are read).
// Reading also accepts {"type": "reference", "term": name} terms and values wrapped as
// {"type": "literal", "value": v}, as Java's parser does. Errors are values naming the place in
// the JSON at fault ("left.right.value"); nothing throws.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "floe/expr/expression.h"

namespace floe {

// The REST JSON of `expr`, bound or unbound. Literals are written in the single-value form of
// their own type (a bound date literal as "2024-06-15", binary as hex, decimal as text).
Result<nlohmann::json> expression_to_json(const Expression& expr);

// Reads an unbound expression (predicates name columns). Without a schema each value becomes a
// literal of its JSON kind (integer -> long, other number -> double, string, boolean) and
// binding converts it to the column's type, as Java's parser does without a schema. With a
// schema, each value is read in the single-value form of its term's type (the column's, or the
// transform's result type), so binary, fixed, decimal and timestamp values keep their exact
// meaning; a value that is not in that form falls back to its JSON kind. Columns are looked up
// in `schema` (with `case_sensitive`) only to type values: binding still decides. Errors are
// kInvalidArgument naming `where` and the path below it ("filter.left.value: ...").
Result<ExprPtr> expression_from_json(const nlohmann::json& json, const Schema* schema = nullptr,
                                     bool case_sensitive = true,
                                     std::string_view where = "expression");

// The REST name of an operation ("lt-eq", "not-starts-with", "and", "true", ...).
const char* rest_operation_name(Operation op);

}  // namespace floe
