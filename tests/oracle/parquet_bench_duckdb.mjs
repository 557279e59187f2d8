// Times DuckDB (1 thread) reading and writing the same Parquet file floe's benchmark uses.
// Usage: node parquet_bench_duckdb.mjs FILE OUT_DIR [CODEC] [THREADS]
//   -> {"rows":..,"read_s":..,"write_s":..,"read_cpu_s":..,"write_cpu_s":..}
// Wall and process CPU time (user + system, every thread), each the best of the runs.
// read: every column is decoded (an aggregate per column); write: COPY of the table (already
// in DuckDB's memory) to a Parquet file with CODEC (default zstd, at level 3 like floe's).
import {DuckDBInstance} from '@duckdb/node-api';

const [file, outDir, codec = 'zstd', threads = '1'] = process.argv.slice(2);
const instance = await DuckDBInstance.create(':memory:', {
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
  threads,
});
const c = await instance.connect();
const q = (s) => '\'' + s.replaceAll('\'', '\'\'') + '\'';
const cols = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${q(file)})`))
                 .getRowObjects()
                 .map((r) => r.column_name);
const aggs = cols.map((n) => `max("${n}")`).join(', ');
const cpu = (c0) => {
  const d = process.cpuUsage(c0);
  return (d.user + d.system) / 1e6;
};
let best = Infinity, bestCpu = Infinity;
for (let i = 0; i < 3; ++i) {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  await c.runAndReadAll(`SELECT count(*), ${aggs} FROM read_parquet(${q(file)})`);
  bestCpu = Math.min(bestCpu, cpu(c0));
  best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
}
const rows =
    Number((await c.runAndReadAll(`SELECT count(*)::BIGINT n FROM read_parquet(${q(file)})`))
               .getRowObjects()[0]
               .n);
await c.run(`CREATE TABLE t AS SELECT * FROM read_parquet(${q(file)})`);
let bestWrite = Infinity, bestWriteCpu = Infinity;
for (let i = 0; i < 2; ++i) {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  await c.run(`COPY t TO ${q(outDir + '/duckdb_out.parquet')} (FORMAT parquet, COMPRESSION ${codec}${
      codec === 'zstd' ? ', COMPRESSION_LEVEL 3' : ''})`);
  bestWriteCpu = Math.min(bestWriteCpu, cpu(c0));
  bestWrite = Math.min(bestWrite, Number(process.hrtime.bigint() - t0) / 1e9);
}
console.log(JSON.stringify(
    {rows, read_s: best, write_s: bestWrite, read_cpu_s: bestCpu, write_cpu_s: bestWriteCpu}));
