#!/usr/bin/env bash
# Parquet read/write throughput of floe against DuckDB on the same files, in the same run
# (bench/README.md Q1/Q2): for each codec (zstd, snappy, uncompressed) and thread count (1, 2),
# the write of the 10-column table and the reads of every projection (all 10 columns, the 8
# numeric ones, two) of the file floe wrote and of the file DuckDB wrote. Prints one table per
# cell; ratios are DuckDB's time / floe's (> 1 = floe faster), of wall and of CPU time.
# Usage: bench/parquet_vs_duckdb.sh [ROWS] [BUILD_DIR] [CELLS]
#   CELLS: a regex over "codec:C/threads:T" (C: 0 zstd, 1 snappy, 2 uncompressed), default all.
set -euo pipefail
ROWS=${1:-10000000}
BUILD=${2:-build}
CELLS=${3:-.}
cd "$(dirname "$0")/.."
FLOE_BENCH_ROWS=$ROWS "$BUILD/bench/floe_bench" \
  --benchmark_filter="BM_ParquetVsDuckDB/.*($CELLS)" --benchmark_counters_tabular=true
