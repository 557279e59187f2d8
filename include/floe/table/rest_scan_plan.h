// Server-side scan planning in the REST catalog protocol's terms (REST OpenAPI spec:
// planTableScan, fetchScanTasks; PlanTableScanRequest, PlanTableScanResult,
// FetchScanTasksRequest, FetchScanTasksResult, FileScanTask, DataFile, PositionDeleteFile,
// EqualityDeleteFile). The server's routes hand the parsed request body to these functions and
// send back the JSON text they return; planning itself is floe's TableScan (manifests pruned by
// partition summaries, files by partition values and metrics, delete files attached by sequence
// number and partition, residual filters per partition).
//
// planTableScan answers "completed" with either
//   - file-scan-tasks and delete-files: each task's data file, the indices of its delete files
//     in delete-files (delete-file-references) and its residual filter; or, when the scan reads
//     more data manifests than RestPlanOptions::max_inline_manifests,
//   - plan-tasks: opaque strings, one per batch of manifests, each resolved by fetchScanTasks
//     into that batch's file scan tasks. A plan task is self-contained (Base64 of a small JSON
//     document naming the table, the snapshot, the manifests, the filter, the selected and
//     stats fields and the case sensitivity), so the server keeps no state between the calls;
//     whatever comes back is validated again in full: a plan task that is not one this server
//     wrote, or names another table or manifests its snapshot does not list, is an invalid
//     argument, never a crash.
// The union of the tasks of every plan task equals the file scan tasks a completed answer lists.
// Each answer also carries a plan-id (the OpenAPI document requires one with "completed"); no
// state is kept under it, so the server can acknowledge cancelPlanning for it at once.
//
// Content files are written as the spec's ContentFile JSON: content ("data",
// "position-deletes", "equality-deletes"), file-path, file-format (lower case), spec-id,
// partition (the single-value JSON of each field of the file's spec, in order),
// file-size-in-bytes, record-count, key-metadata (hex), split-offsets, sort-order-id,
// equality-ids, first-row-id (v3; with data-sequence-number, as Java writes it), and for
// deletion vectors and scoped position deletes referenced-data-file, content-offset and
// content-size-in-bytes. Column metrics (column-sizes, value-counts, null-value-counts,
// nan-value-counts as CountMaps; lower-bounds and upper-bounds as ValueMaps of the bounds'
// binary form in hex) are sent only for the columns stats-fields names; position delete files
// keep their file_path bounds, which scope them to one data file.
//
// Errors, for the server to map to HTTP (floe/catalog/rest_protocol.h):
//   kInvalidArgument  a malformed request, filter, field name or plan task (400)
//   kNotFound         the snapshot a request or plan task names is not in the table (404)
//   kNotSupported     incremental scans (start-snapshot-id / end-snapshot-id) (406)
//   anything else     reading the table's manifest lists or manifests failed (kIo, or
//                     kInvalidData for a damaged file)
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "floe/table/table.h"

namespace floe {

struct RestPlanOptions {
  // A scan whose data manifests (after pruning on partition summaries) number more than this
  // is answered with plan tasks instead of file scan tasks.
  int64_t max_inline_manifests = 16;
  // Data manifests per plan task (at least 1).
  int64_t manifests_per_plan_task = 8;
  int threads = 0;  // manifest reader threads; 0 = one per core
};

// planTableScan: `request` is the PlanTableScanRequest body; returns the PlanTableScanResult
// JSON text.
Result<std::string> plan_table_scan_json(const Table& table, const nlohmann::json& request,
                                         const RestPlanOptions& options = {});
// fetchScanTasks: `request` is the FetchScanTasksRequest body ({"plan-task": "..."}); returns
// the FetchScanTasksResult JSON text (file-scan-tasks and delete-files).
Result<std::string> fetch_scan_tasks_json(const Table& table, const nlohmann::json& request,
                                          const RestPlanOptions& options = {});

// The same over a table's files and metadata without a catalog (a table read by path).
Result<std::string> plan_table_scan_json(const FileIOPtr& io,
                                         const std::shared_ptr<const TableMetadata>& metadata,
                                         const nlohmann::json& request,
                                         const RestPlanOptions& options = {});
Result<std::string> fetch_scan_tasks_json(const FileIOPtr& io,
                                          const std::shared_ptr<const TableMetadata>& metadata,
                                          const nlohmann::json& request,
                                          const RestPlanOptions& options = {});

}  // namespace floe
