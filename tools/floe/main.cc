// floe: the command-line tool. Parses global options and dispatches to src/cli commands.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "cli/cli.h"

int main(int argc, char** argv) {
  floe::cli::GlobalOptions options;
  if (const char* w = std::getenv("FLOE_WAREHOUSE")) options.warehouse = w;
  if (const char* c = std::getenv("FLOE_CATALOG")) options.catalog = c;

  CLI::App app{"floe: a native Apache Iceberg implementation"};
  app.fallthrough();  // global options are accepted after the command name too
  app.require_subcommand(1);
  app.add_option("--warehouse", options.warehouse, "Warehouse directory (default ./warehouse)");
  app.add_option("--catalog", options.catalog,
                 "Catalog URI (default sqlite:<warehouse>/catalog.db)");
  app.add_option("--catalog-name", options.catalog_name, "Catalog name (default lakehouse)");
  app.add_option("--format", options.format, "Output format")
      ->check(CLI::IsMember({"table", "csv", "json"}));

  std::string inspect_path;
  auto* inspect = app.add_subcommand(
      "inspect", "Print a table's metadata: format, schemas, specs, sort orders, refs, snapshots");
  inspect->add_option("path", inspect_path, "Metadata JSON file or table directory")->required();

  auto* demo = app.add_subcommand("demo", "Walk through floe's features on generated data");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  floe::Status status;
  if (inspect->parsed()) {
    status = floe::cli::run_inspect(options, inspect_path, std::cout);
  } else if (demo->parsed()) {
    status = floe::cli::run_demo(options, std::cout);
  }
  if (!status.ok()) {
    std::cerr << "floe: " << status.to_string() << std::endl;
    return 1;
  }
  return 0;
}
