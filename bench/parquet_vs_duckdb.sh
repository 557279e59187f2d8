#!/usr/bin/env bash
# Parquet read/write throughput of floe against DuckDB on the same 10-column file, in the same run
# (performance.md Q1-Q3). Prints Google Benchmark counters including read_ratio and write_ratio
# (wall time) and read_ratio_cpu / write_ratio_cpu (process CPU time); > 1 = floe faster.
# Usage: bench/parquet_vs_duckdb.sh [ROWS] [BUILD_DIR] [CODEC] [THREADS]
# CODEC: zstd (level 3 on both sides), snappy or uncompressed; THREADS: for DuckDB and floe alike.
set -euo pipefail
ROWS=${1:-10000000}
BUILD=${2:-build}
export FLOE_BENCH_CODEC=${3:-zstd}
export FLOE_BENCH_THREADS=${4:-1}
cd "$(dirname "$0")/.."
FLOE_BENCH_ROWS=$ROWS "$BUILD/bench/floe_bench" --benchmark_filter='BM_ParquetVsDuckDB' \
  --benchmark_counters_tabular=true
