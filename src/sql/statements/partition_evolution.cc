// ALTER TABLE actions on partitioning (evolution_internal.h).
#include "sql/statements/evolution_internal.h"

namespace floe::sql {

Status alter_partitioning(WriteContext&, const ast::AlterTableStatement&) {
  return not_supported("this ALTER TABLE action on partitioning is not supported yet");
}

}  // namespace floe::sql
