// Reading a table by path (`floe scan DIR`, `floe inspect DIR`, `floe meta DIR`) when a catalog
// may manage it. A catalog commits by writing `<version>-<uuid>.metadata.json` and then swapping
// its pointer; a writer killed between the two leaves a newer file that was never committed, so
// the newest file in metadata/ is not necessarily the table. The catalog says which file is.
//
// open_table_by_path(path):
//  - a metadata JSON file: that file, as given;
//  - a directory whose metadata files are named `v<N>.metadata.json` (filesystem tables): the
//    version hint / highest version, as the filesystem catalog commits;
//  - catalog-named files (`00003-<uuid>.metadata.json`): the catalogs given, and the SQLite
//    catalog `catalog.db` of every directory above the table (a warehouse's embedded catalog),
//    are asked which table has its current metadata file in the table's metadata directory.
//    One answer: that file. Several different answers: an error listing them. None (a table no
//    catalog manages, e.g. copied files): version-hint.text, else the highest version, unless
//    two files claim that version (an uncommitted file beside a committed one), which is an
//    error naming them. Errors say how to choose: pass the metadata file.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/spec/metadata_file.h"

namespace floe {

struct PathReadOptions {
  MetadataParseOptions parse;
  // Catalogs to ask first (the one the command was given, e.g. --catalog / FLOE_CATALOG).
  std::vector<CatalogPtr> catalogs;
  // Opens one more catalog to ask, only when the table has catalog-named metadata files (so a
  // catalog that cannot be reached does not stop reading filesystem tables). May return null.
  std::function<Result<CatalogPtr>()> open_catalog;
  // Also ask `catalog.db` in the directories above the table.
  bool search_warehouse_catalogs = true;
};

Result<StoredTable> open_table_by_path(FileIOPtr io, std::string_view path,
                                       const PathReadOptions& options = {});

}  // namespace floe
