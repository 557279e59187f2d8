// purge_table_files is being implemented in src/catalog on another branch; until it lands the
// memory catalog's reference to it needs a definition. Weak, so the real one wins once linked.
#include "floe/catalog/catalog.h"

namespace floe {
__attribute__((weak)) Status purge_table_files(FileIO&, const TableMetadata&, std::string_view) {
  return not_supported("purge_table_files is not linked in this build");
}
}  // namespace floe
