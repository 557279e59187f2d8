// Puffin files (Iceberg's blob container for statistics and deletion vectors): the footer that
// lists each blob's type, offset and length. Layout: magic PFA1, blobs, then the footer
// `PFA1 | JSON payload | payload size (u32 LE) | flags (4 bytes) | PFA1`.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "floe/io/file_io.h"

namespace floe {

struct PuffinBlob {
  std::string type;  // e.g. "deletion-vector-v1", "apache-datasketches-theta-v1"
  std::vector<int32_t> fields;
  int64_t snapshot_id = -1;
  int64_t sequence_number = -1;
  int64_t offset = 0;
  int64_t length = 0;
  std::optional<std::string> compression_codec;
  std::map<std::string, std::string> properties;
};

struct PuffinFooter {
  std::vector<PuffinBlob> blobs;
  std::map<std::string, std::string> properties;
};

// Reads and validates the footer (magic at both ends of the file and of the footer, payload
// size, blob ranges inside the file). `size`: the file size if known. Errors name the file.
Result<PuffinFooter> read_puffin_footer(FileIO& io, const std::string& path,
                                        std::optional<int64_t> size = std::nullopt);

}  // namespace floe
