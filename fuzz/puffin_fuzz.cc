// Puffin files (Puffin spec) and deletion vectors (Iceberg spec, Deletion Vectors): the footer
// of an in-memory file and every deletion-vector-v1 blob it lists, then the whole input as a
// deletion-vector blob and as a portable 64-bit Roaring bitmap (whose CRC a blob would guard).
// Property: a bitmap that parses serializes to a deletion vector that parses to the same
// positions. Reads bound positions by the data file's row count (kRows here), as the scan does.
#include "floe/io/file_io.h"
#include "floe/read/position_delete_set.h"
#include "floe/read/puffin.h"
#include "floe/write/deletion_vector_writer.h"
#include "fuzz_support.h"

namespace {

constexpr const char* kPath = "fuzz.puffin";
constexpr int64_t kRows = 1 << 17;  // rows of the data file a vector deletes from: two containers

void read_puffin(floe::FileIO& io, int64_t size) {
  auto footer = floe::read_puffin_footer(io, kPath, size);
  if (!footer.ok()) return;
  for (const floe::PuffinBlob& blob : footer->blobs) {
    if (blob.type != "deletion-vector-v1") continue;
    auto bytes = io.read_range(kPath, blob.offset, blob.length);
    if (!bytes.ok()) continue;
    auto positions = floe::parse_deletion_vector(*bytes, "fuzz blob", kRows);
    if (positions.ok()) (void)positions->contains(0);
  }
}

void check_round_trip(std::string_view bitmap) {
  floe::PositionDeleteSet positions;
  if (!floe::parse_roaring64_portable(bitmap, &positions, kRows).ok()) return;
  positions.finish();
  auto blob = floe::encode_deletion_vector(positions.positions());
  FUZZ_CHECK(blob.ok(), blob.status().to_string());
  auto again = floe::parse_deletion_vector(*blob, "round trip", kRows);
  FUZZ_CHECK(again.ok(), again.status().to_string());
  again->finish();
  FUZZ_CHECK(again->positions() == positions.positions(), std::to_string(positions.cardinality()) +
                                                              " positions came back as " +
                                                              std::to_string(again->cardinality()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const floe::FileIOPtr io = floe::make_memory_file_io();
  std::string_view bytes = floe::fuzz::as_text(data, size);
  if (!io->write_file(kPath, bytes).ok()) return 0;
  read_puffin(*io, static_cast<int64_t>(size));
  auto whole = floe::parse_deletion_vector(bytes, "fuzz input", kRows);
  if (whole.ok()) (void)whole->contains(0);
  check_round_trip(bytes);
  return 0;
}
