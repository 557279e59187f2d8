// Helpers the benchmarks share: schema fields, the 10-column table of the Parquet and Avro
// data-file workloads (bench/README.md Q1-Q3, H11), the snapshot summary Java writes for an
// append (the metadata.json of streaming tables, P1 and C3), and the timing of side-by-side
// runs against DuckDB (best wall and CPU time, the oracle's printed JSON).
#pragma once

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "floe/spec/schema.h"

namespace floe::bench {

inline NestedField field(int32_t id, std::string name, TypePtr type, bool required = false) {
  NestedField f;
  f.id = id;
  f.name = std::move(name);
  f.type = std::move(type);
  f.required = required;
  return f;
}

// ids, ints, doubles, timestamps, low- and high-cardinality strings and a flag.
inline std::vector<NestedField> ten_column_fields() {
  return {field(1, "id", Type::int64(), true),     field(2, "qty", Type::int32()),
          field(3, "amount", Type::int64()),       field(4, "price", Type::float64()),
          field(5, "score", Type::float64()),      field(6, "event_ts", Type::timestamptz()),
          field(7, "local_ts", Type::timestamp()), field(8, "country", Type::string()),
          field(9, "user", Type::string()),        field(10, "flag", Type::boolean())};
}

// Java's 12-key summary of the `n`-th append (from 1) of a table where every append adds
// `files` files, `records` records and `bytes` bytes.
inline std::map<std::string, std::string> java_append_summary(int64_t n, int64_t files,
                                                              int64_t records, int64_t bytes) {
  return {{"operation", "append"},
          {"spark.app.id", "local-1700000000000"},
          {"added-data-files", std::to_string(files)},
          {"added-records", std::to_string(records)},
          {"added-files-size", std::to_string(bytes)},
          {"changed-partition-count", "1"},
          {"total-records", std::to_string(records * n)},
          {"total-files-size", std::to_string(bytes * n)},
          {"total-data-files", std::to_string(files * n)},
          {"total-delete-files", "0"},
          {"total-position-deletes", "0"},
          {"total-equality-deletes", "0"}};
}

struct Timing {
  double wall = 1e30, cpu = 1e30;  // seconds; cpu: the process, every thread
};

inline double process_cpu_seconds() {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// Best wall and best CPU time of `runs` calls (the machine is shared: CPU time is the steadier).
template <typename F>
Timing best_times(int runs, F&& f) {
  Timing best;
  for (int i = 0; i < runs; ++i) {
    double c0 = process_cpu_seconds();
    auto t0 = std::chrono::steady_clock::now();
    f();
    best.wall = std::min(
        best.wall, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    best.cpu = std::min(best.cpu, process_cpu_seconds() - c0);
  }
  return best;
}

// What a shell command prints on stdout (the DuckDB oracles print one JSON line).
inline std::string command_output(const std::string& cmd) {
  std::string text;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return text;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0) text.append(buf, n);
  pclose(pipe);
  return text;
}

}  // namespace floe::bench
