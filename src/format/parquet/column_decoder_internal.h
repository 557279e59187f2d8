// Private: decodes one column chunk into definition levels, repetition levels and the dense
// (non-null) values of the leaf, converted to the Iceberg representation.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "floe/columnar/column_vector.h"
#include "floe/format/parquet/key_run_reader.h"
#include "floe/io/file_io.h"
#include "format/parquet/codec_internal.h"
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
  Status start(const LeafSpec& spec, const ColumnMetaData& meta, const Buffer& chunk) {
    return start(spec, meta,
                 std::string_view(reinterpret_cast<const char*>(chunk.data()), chunk.size()));
  }
  // Decodes the next `rows` rows (every level entry of them, for repeated columns; rows < 0:
  // every row left). Appends their dense (non-null) values to `out` and replaces defs/reps
  // (left empty when the max level is 0; defs also when every level of a flat column's rows is
  // at the max: no nulls). Fails when the chunk holds fewer rows, or, once the chunk is done,
  // when its pages hold another number of values than its metadata says.
  Status next(int64_t rows, ColumnVector* out, std::vector<int16_t>* defs,
              std::vector<int16_t>* reps);
  // The whole chunk: start() then next(-1).
  Status decode(const LeafSpec& spec, const ColumnMetaData& meta, std::string_view chunk,
                ColumnVector* out, std::vector<int16_t>* defs, std::vector<int16_t>* reps);
  // Passes over the next `rows` rows of a flat column. Whole pages inside them are skipped
  // from their headers, undecompressed; a page that runs past them is decoded and its tail
  // kept for next().
  Status skip(int64_t rows);

  // Reading a flat BYTE_ARRAY column as runs of equal values, without copying the values of
  // dictionary-encoded pages (a sorted column's RLE runs are long). A run names a dictionary
  // index, kPlain | i for value i of plain_values() (pages in another encoding, decoded the
  // generic way), or kNull. Not to be mixed with next() on one chunk.
  // (The public KeyRunReader hands these runs out as they are.)
  using Run = KeyRunReader::Run;
  static constexpr uint32_t kNull = KeyRunReader::kNull;
  static constexpr uint32_t kPlain = KeyRunReader::kPlain;
  // The next data page as runs; *rows = its rows (0 at the end of the chunk).
  Status next_runs(std::vector<Run>* runs, int64_t* rows);
  // The dictionary the dictionary indices refer to, and a number that changes whenever it is
  // replaced (also across chunks).
  const ColumnVector& dictionary() const { return *dict_; }
  uint64_t dictionary_generation() const { return dictionary_generation_; }
  const ColumnVector& plain_values() const { return *plain_; }

  // Decoders of one chunk reading different rows of it (threads) share its dictionary: after
  // start(), share_dictionary(d, body) makes the dictionary page whose body starts at byte
  // `body` of the chunk take d, decoded by another decoder (the dictionary is never changed
  // once decoded), instead of being decoded again. The last dictionary loaded and where its
  // page's body is (nullptr before any):
  void share_dictionary(ColumnPtr dict, size_t body) {
    shared_dict_ = std::move(dict);
    shared_dict_body_ = body;
  }
  ColumnPtr dictionary_ptr() const { return has_dict_ ? dict_ : nullptr; }
  size_t dictionary_body() const { return dict_body_; }

 private:
  // A data page located, its body decompressed (unless skipped), levels not yet decoded.
  struct DataPage {
    int64_t values = 0;    // level entries; 0 at the end of the chunk
    bool skipped = false;  // passed over from its header alone
    bool v2 = false;
    Encoding encoding = Encoding::kPlain;
    Encoding def_encoding = Encoding::kRle, rep_encoding = Encoding::kRle;  // v1
    const uint8_t* p = nullptr;  // v1: levels then values; v2: values
    size_t n = 0;
    const uint8_t* level_base = nullptr;  // v2
    size_t rep_bytes = 0, def_bytes = 0;  // v2
  };
  // Finds the next data page, loading dictionary pages on the way. A data page of at most
  // `skip_up_to` entries is only counted (skipped = true).
  Status next_data_page(int64_t skip_up_to, DataPage* page);
  // Appends the page's levels to defs/reps (moving p past v1 levels); *present = its
  // non-null values.
  // With `implicit` (flat columns), a page whose definition levels are all at the max, while
  // defs is empty, only adds its entries to *implicit; a page with nulls first writes out the
  // *implicit entries.
  Status decode_page_levels(DataPage* page, std::vector<int16_t>* defs, std::vector<int16_t>* reps,
                            int64_t* present, int64_t* implicit = nullptr);
  Status load_dictionary(const PageHeader& h, const uint8_t* body, size_t body_size);
  // Decodes the next data page (dictionary pages on the way are loaded), appending to
  // out/defs/reps; *entries = its level entries (0 at the end of the chunk).
  Status decode_page(ColumnVector* out, std::vector<int16_t>* defs, std::vector<int16_t>* reps,
                     int64_t* entries, int64_t* implicit);
  // Hands out entries of the kept page tail until `rows` more rows have started (and, for
  // repeated columns, up to the next row start); returns whether the batch is complete.
  bool take_kept(int64_t rows, int64_t* started, ColumnVector* out, std::vector<int16_t>* defs,
                 std::vector<int16_t>* reps, int64_t* implicit);
  // Moves the entries [cut, end) of the page just decoded into out/defs/reps to the kept tail.
  void keep_tail(int64_t first_entry, int64_t cut, ColumnVector* out, std::vector<int16_t>* defs,
                 std::vector<int16_t>* reps, int64_t* implicit);
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
  size_t dict_body_ = 0;
  ColumnPtr shared_dict_;
  size_t shared_dict_body_ = 0;
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
  bool kept_implicit_ = false;  // the kept entries' levels are all at the max, not in kept_defs_
  uint64_t dictionary_generation_ = 0;
  ColumnPtr skipped_, plain_;  // skip()'s partly skipped page; next_runs()'s generic values
  std::vector<int16_t> skip_defs_, skip_reps_, run_defs_, run_reps_;
};

// Where a column chunk starts: its dictionary page, else its first data page.
int64_t chunk_start(const ColumnMetaData& meta);
// Reads a column chunk's bytes (from chunk_start) into `out`, reusing its memory.
Status read_chunk(FileIO& io, const std::string& path, const ColumnMetaData& meta, Buffer* out);

}  // namespace floe::parquet::internal
