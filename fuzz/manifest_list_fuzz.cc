// Manifest lists (Iceberg spec, Manifest Lists): parse_manifest_list over the file's bytes.
#include "floe/manifest/manifest_list_reader.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto list = floe::parse_manifest_list(std::string(floe::fuzz::as_text(data, size)),
                                        "fuzz-manifest-list.avro");
  if (!list.ok()) return 0;
  return 0;
}
