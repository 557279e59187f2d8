#!/usr/bin/env bash
# Parquet read/write throughput of floe against DuckDB (1 thread) on the same 10-column file, in
# the same run (performance.md Q1-Q3). Prints Google Benchmark counters including read_ratio and
# write_ratio (> 1 = floe faster). Usage: bench/parquet_vs_duckdb.sh [ROWS] [BUILD_DIR]
set -euo pipefail
ROWS=${1:-10000000}
BUILD=${2:-build}
cd "$(dirname "$0")/.."
FLOE_BENCH_ROWS=$ROWS "$BUILD/bench/floe_bench" --benchmark_filter='BM_ParquetVsDuckDB' \
  --benchmark_counters_tabular=true
