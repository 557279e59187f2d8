// Private: decodes one column chunk into definition levels, repetition levels and the dense
// (non-null) values of the leaf, converted to the Iceberg representation.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "format/parquet/codec.h"
#include "format/parquet/schema_internal.h"

namespace floe::parquet::internal {

struct LeafSpec {
  PhysicalType physical = PhysicalType::kInt32;
  int type_length = 0;
  int16_t max_def = 0;
  int16_t max_rep = 0;
  Conv conv = Conv::kNone;
  TypePtr type;
};

class ColumnDecoder {
 public:
  // Decodes the chunk's pages. `out` receives the dense values (appended); defs/reps are
  // replaced (left empty when the max level is 0).
  Status decode(const LeafSpec& spec, const ColumnMetaData& meta, std::string_view chunk,
                ColumnVector* out, std::vector<int16_t>* defs, std::vector<int16_t>* reps);

 private:
  Status decode_levels(Encoding enc, const uint8_t* p, size_t n, int16_t max_level, int64_t count,
                       int16_t* out, size_t* consumed, bool prefixed);
  Status decode_values(Encoding enc, const uint8_t* p, size_t n, int64_t count, ColumnVector* out);
  Status decode_plain(const uint8_t* p, size_t n, int64_t count, ColumnVector* dst);
  Status decode_dictionary_page(const uint8_t* p, size_t n, int64_t count);
  Status convert(const ColumnVector& src, ColumnVector* dst);

  const LeafSpec* spec_ = nullptr;
  PageCodec codec_;
  Buffer page_;
  ColumnPtr dict_;
  ColumnPtr scratch_;
  bool has_dict_ = false;
  std::vector<uint32_t> indices_;
  std::vector<int64_t> delta_;
  std::vector<int64_t> delta2_;
};

}  // namespace floe::parquet::internal
