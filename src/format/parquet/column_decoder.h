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

// Decodes one column chunk, all at once or a batch of rows at a time. A page that runs past a
// batch is decoded once: its tail is kept and handed out first by the next call.
class ColumnDecoder {
 public:
  // Starts a column chunk; `chunk` (its bytes, from its first page) must outlive the reads.
  Status start(const LeafSpec& spec, const ColumnMetaData& meta, std::string_view chunk);
  // Decodes the next `rows` rows (every level entry of them, for repeated columns; rows < 0:
  // every row left). Appends their dense (non-null) values to `out` and replaces defs/reps
  // (left empty when the max level is 0). Fails when the chunk holds fewer rows, or, once the
  // chunk is done, when its pages hold another number of values than its metadata says.
  Status next(int64_t rows, ColumnVector* out, std::vector<int16_t>* defs,
              std::vector<int16_t>* reps);
  // The whole chunk: start() then next(-1).
  Status decode(const LeafSpec& spec, const ColumnMetaData& meta, std::string_view chunk,
                ColumnVector* out, std::vector<int16_t>* defs, std::vector<int16_t>* reps);

 private:
  // Decodes the next data page (dictionary pages on the way are loaded), appending to
  // out/defs/reps; *entries = its level entries (0 at the end of the chunk).
  Status decode_page(ColumnVector* out, std::vector<int16_t>* defs, std::vector<int16_t>* reps,
                     int64_t* entries);
  // Hands out entries of the kept page tail until `rows` more rows have started (and, for
  // repeated columns, up to the next row start); returns whether the batch is complete.
  bool take_kept(int64_t rows, int64_t* started, ColumnVector* out, std::vector<int16_t>* defs,
                 std::vector<int16_t>* reps);
  // Moves the entries [cut, end) of the page just decoded into out/defs/reps to the kept tail.
  void keep_tail(int64_t first_entry, int64_t cut, ColumnVector* out, std::vector<int16_t>* defs,
                 std::vector<int16_t>* reps);
  Status decode_levels(Encoding enc, const uint8_t* p, size_t n, int16_t max_level, int64_t count,
                       int16_t* out, size_t* consumed, bool prefixed);
  Status decode_values(Encoding enc, const uint8_t* p, size_t n, int64_t count, ColumnVector* out);
  Status decode_plain(const uint8_t* p, size_t n, int64_t count, ColumnVector* dst);
  Status decode_dictionary_page(const uint8_t* p, size_t n, int64_t count);
  Status convert(const ColumnVector& src, ColumnVector* dst);

  const LeafSpec* spec_ = nullptr;
  const ColumnMetaData* meta_ = nullptr;
  std::string_view chunk_;
  size_t pos_ = 0;    // next page header in chunk_
  int64_t seen_ = 0;  // level entries of the pages decoded so far
  PageCodec codec_;
  Buffer page_;
  ColumnPtr dict_;
  ColumnPtr scratch_;
  bool has_dict_ = false;
  std::vector<uint32_t> indices_;
  std::vector<int64_t> delta_;
  std::vector<int64_t> delta2_;
  // The kept tail of a page: dense values [kept_value_, kept_->length()) and level entries
  // [kept_entry_, kept_entries_) of kept_defs_/kept_reps_.
  ColumnPtr kept_;
  std::vector<int16_t> kept_defs_, kept_reps_;
  int64_t kept_entry_ = 0, kept_entries_ = 0, kept_value_ = 0;
};
}  // namespace floe::parquet::internal
