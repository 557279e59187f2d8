// The Parquet schema the writer gives an Iceberg schema, built with the writer's node tree
// (WNode) and leaves (WLeaf).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "floe/format/parquet/metadata.h"
#include "floe/spec/metrics_config.h"
#include "floe/spec/schema.h"
#include "format/parquet/writer_leaf_internal.h"

namespace floe::parquet::internal {

// Bytes of the FIXED_LEN_BYTE_ARRAY holding a decimal of `precision` digits (8 up to 18).
int decimal_flba_length(int precision);

// The physical and logical type of a primitive Iceberg type.
Status primitive_element(const Type& t, SchemaElement* e);

// Adds field `f` (named `name`, under the levels def/rep and the path `path`) to `schema` and
// builds its node: its leaves are appended to `leaves`, with their metrics mode and an empty
// page (the caller starts their chunks).
Status add_field(const NestedField& f, int16_t def, int16_t rep, bool in_rep,
                 std::vector<std::string> path, const std::string& name,
                 const MetricsConfig& metrics, WNode* node, std::vector<WLeaf>* leaves,
                 std::vector<SchemaElement>* schema);

}  // namespace floe::parquet::internal
