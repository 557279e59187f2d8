// Table metadata JSON (Iceberg spec, Table Metadata): parse_table_metadata, both the simdjson
// fast path and the nlohmann reference it falls back to. Properties: what parses validates
// without crashing, and writing it back and parsing that gives equal metadata.
#include "floe/spec/table_metadata.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = floe::fuzz::as_text(data, size);
  for (bool referenced_only : {false, true}) {
    floe::MetadataParseOptions options;
    options.referenced_snapshots_only = referenced_only;
    auto parsed = floe::parse_table_metadata(text, options);
    if (!parsed.ok()) continue;
    (void)parsed->validate();
    (void)parsed->current_snapshot();
    if (referenced_only) continue;
    std::string written = floe::table_metadata_to_json(*parsed);
    auto again = floe::parse_table_metadata(written);
    FUZZ_CHECK(again.ok(), "written: " + written + "\nerror: " + again.status().to_string());
    FUZZ_CHECK(*again == *parsed, "written: " + written);
  }
  return 0;
}
