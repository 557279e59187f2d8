// Avro object container files (Avro spec, Object Container Files): the header, every codec and
// the generic datum decoder of `floe cat`, then the same file again skipping every datum.
#include "floe/format/avro/container.h"
#include "floe/format/avro/generic.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes = floe::fuzz::as_text(data, size);
  auto reader = floe::avro::ContainerReader::open_view(bytes, "fuzz.avro");
  if (!reader.ok()) return 0;
  int64_t decoded = 0;
  (void)floe::avro::for_each_json(**reader, [&](nlohmann::ordered_json& record) {
    (void)record.dump(-1, ' ', false,
                      nlohmann::ordered_json::error_handler_t::replace);  // as floe cat
    return ++decoded < 100000;
  });

  auto again = floe::avro::ContainerReader::open_view(bytes, "fuzz.avro");
  FUZZ_CHECK(again.ok(), "a header that parsed once must parse again");
  floe::avro::ContainerReader& r = **again;
  if (r.schema().empty()) return 0;
  for (int blocks = 0; blocks < 10000; ++blocks) {
    auto more = r.next_block();
    if (!more.ok() || !*more) break;
    for (int64_t i = 0; i < r.block_count() && r.decoder().ok(); ++i) {
      floe::avro::skip_datum(r.schema().root(), r.decoder());
    }
    if (!r.finish_block().ok()) break;
  }
  return 0;
}
