// The floe command line: global options shared by every command, and one function per command.
#pragma once

#include <iosfwd>
#include <string>

#include "floe/util/result.h"

namespace floe::cli {

enum class OutputFormat { kTable, kCsv, kJson };

// Options every command accepts, before or after the command name.
struct GlobalOptions {
  std::string warehouse = "warehouse";
  std::string catalog;  // default: sqlite:<warehouse>/catalog.db
  std::string catalog_name = "lakehouse";
  std::string format = "table";

  OutputFormat output_format() const;
};

// floe inspect PATH: prints a table's metadata (see docs/cli.md).
Status run_inspect(const GlobalOptions& options, const std::string& path, std::ostream& out);

// floe demo: walks through what floe can do so far on generated data.
Status run_demo(const GlobalOptions& options, std::ostream& out);

}  // namespace floe::cli
