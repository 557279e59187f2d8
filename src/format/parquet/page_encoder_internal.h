// The parts of a data page the Parquet writer encodes: levels (RLE with a 4-byte length
// prefix, as data pages v1 store them) and PLAIN values of a leaf's dense values.
#pragma once

#include <cstdint>
#include <string>

#include "floe/columnar/column_vector.h"
#include "format/parquet/writer_leaf_internal.h"

namespace floe::parquet::internal {

// PLAIN encoding of dense values [b, e) of `v` for leaf `l`.
void encode_plain(const WLeaf& l, const ColumnVector& v, int64_t b, int64_t e, std::string* out);

// DELTA_BINARY_PACKED encoding of the dense int32 or int64 values of `v`.
void encode_delta_binary(const ColumnVector& v, std::string* out);

// A decimal as leaf `l` stores it: int32, int64 or big-endian FIXED_LEN_BYTE_ARRAY.
void append_decimal(const WLeaf& l, int128_t x, std::string* out);

// Levels of a page that are all `level`: one RLE run with its 4-byte length prefix (bytes
// equal to what put_levels writes for them).
void put_level_run(int16_t level, int64_t n, std::string* out);

// Levels of a page: RLE with a 4-byte length prefix.
void put_levels(const int16_t* levels, int64_t n, int16_t max, std::string* out);

}  // namespace floe::parquet::internal
