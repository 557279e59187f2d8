// ALTER TABLE actions on columns (evolution_internal.h).
#include "sql/statements/evolution_internal.h"

namespace floe::sql {

Status alter_schema(WriteContext&, const ast::AlterTableStatement&) {
  return not_supported("this ALTER TABLE action on columns is not supported yet");
}

}  // namespace floe::sql
