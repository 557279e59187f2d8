// Partition specs (spec "Partitioning"): fields with source ids, partition field ids (from
// 1000), names and transforms; the partition struct type; and the partition-to-path rule.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "floe/spec/schema.h"
#include "floe/spec/transform.h"

namespace floe {

constexpr int32_t kPartitionDataIdStart = 1000;
constexpr int32_t kUnpartitionedLastAssignedId = 999;

struct PartitionField {
  int32_t source_id = 0;
  std::vector<int32_t> source_ids;  // v3 multi-argument transforms only; else empty
  int32_t field_id = 0;
  std::string name;
  Transform transform;

  bool operator==(const PartitionField& other) const = default;
};

class PartitionSpec {
 public:
  PartitionSpec(int32_t spec_id, std::vector<PartitionField> fields)
      : spec_id_(spec_id), fields_(std::move(fields)) {}

  static std::shared_ptr<const PartitionSpec> unpartitioned(int32_t spec_id = 0);

  int32_t spec_id() const { return spec_id_; }
  const std::vector<PartitionField>& fields() const { return fields_; }
  // No fields, or only void fields.
  bool is_unpartitioned() const;
  // Highest partition field id, or 999 with no fields.
  int32_t last_assigned_field_id() const;

  // The manifest's partition struct: one optional field per partition field, id = field id,
  // type = the transform's result type over the source column in `schema`. A source missing
  // from the schema (dropped column) or an unknown transform yields a string-typed field for
  // unknown transforms and an error for missing sources.
  Result<TypePtr> partition_type(const Schema& schema) const;

  // "name=value/name=value": Java's partitionToPath, form-URL-encoding names and values.
  // `values` holds one literal per field (transform result, or null).
  std::string partition_to_path(const std::vector<Literal>& values) const;

  // Same fields (source, field id, name, transform); spec ids may differ.
  bool same_fields(const PartitionSpec& other) const { return fields_ == other.fields_; }
  // Same sources and transforms ignoring field ids and names (Java's compatibleWith without
  // the name check is `equivalent`).
  bool compatible_with(const PartitionSpec& other) const;
  bool operator==(const PartitionSpec& other) const {
    return spec_id_ == other.spec_id_ && fields_ == other.fields_;
  }

  // Default names used by PartitionSpec.Builder (CREATE ... PARTITIONED BY):
  // identity -> col, bucket -> col_bucket, truncate -> col_trunc, year -> col_year,
  // month -> col_month, day -> col_day, hour -> col_hour, void -> col_null.
  static std::string default_field_name(const std::string& source_name, const Transform& t);
  // Names used by spec evolution (ALTER TABLE ... ADD PARTITION FIELD): bucket ->
  // col_bucket_N, truncate -> col_trunc_W, otherwise as above.
  static std::string evolution_field_name(const std::string& source_name, const Transform& t);

  // Checks field id uniqueness, transform applicability and source presence in `schema`.
  Status validate(const Schema& schema) const;

 private:
  int32_t spec_id_;
  std::vector<PartitionField> fields_;
};

using PartitionSpecPtr = std::shared_ptr<const PartitionSpec>;

// application/x-www-form-urlencoded, as java.net.URLEncoder: A-Za-z0-9 . - * _ kept,
// space -> '+', everything else %XX of its UTF-8 bytes.
std::string url_encode_form(std::string_view text);

}  // namespace floe
