// Orphan files: Java's DeleteOrphanFiles action, as Spark's `CALL system.remove_orphan_files`
// runs it. The one maintenance operation that lists storage.
//
// Lists every file under the table location (or `location`, which must lie inside it), skipping
// hidden names (a path part starting with '.' or '_', as Java does), and removes those that no
// metadata references and that were last modified before `older_than_ms`. Referenced are: the
// current metadata file and every earlier one its metadata log names (followed back through the
// oldest one it can still read), version-hint.text, the statistics and partition statistics
// files, and for every snapshot of any branch or tag its manifest list, its manifests and each
// data and delete file they list (any entry status). Files a killed writer left behind are
// orphans, among them a metadata file written but never committed; a file written by a commit
// still running is younger than the cutoff and stays. Before deleting, the table is loaded again
// and whatever a commit made meanwhile references is kept too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "floe/table/table.h"

namespace floe {

struct RemoveOrphanFilesOptions {
  int64_t older_than_ms = 0;  // 0: three days before now
  std::string location;       // empty: the table location
  bool dry_run = false;       // list them only
  int max_concurrent_deletes = 4;
};

struct RemoveOrphanFilesResult {
  std::vector<std::string> orphans;  // as listed, sorted; removed unless dry_run
  int64_t listed = 0;                // files under the location (hidden ones excluded)
  int64_t referenced = 0;            // distinct paths the metadata references
};

Result<RemoveOrphanFilesResult> remove_orphan_files(Table& table,
                                                    const RemoveOrphanFilesOptions& options);

}  // namespace floe
