// DuckDB's side of floe's position-delete benchmark (bench/README.md Q3, anchor H13).
// Usage: node position_delete_bench_duckdb.mjs FILE TARGET_PATH
// Times, best of 5 with 1 thread, the full decode of a (file_path, pos) Parquet file
// (`SELECT count(*), max(pos)`) and the filter to one data file (`... WHERE file_path = TARGET`).
// Prints {"full":{"s":..,"cpu_s":..,"count":..},"filter":{...}}: wall and process CPU seconds.
import {connectDuckDB, sqlString as q} from './duckdb_connect.mjs';

const [file, target] = process.argv.slice(2);
const c = await connectDuckDB('1');
async function best(runs, sql) {
  let s = Infinity, cpuS = Infinity, count = 0;
  for (let i = 0; i < runs; ++i) {
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    const rows = (await c.runAndReadAll(sql)).getRows();
    const d = process.cpuUsage(c0);
    cpuS = Math.min(cpuS, (d.user + d.system) / 1e6);
    s = Math.min(s, Number(process.hrtime.bigint() - t0) / 1e9);
    count = Number(rows[0][0]);
  }
  return {s, cpu_s: cpuS, count};
}
const from = `FROM read_parquet(${q(file)})`;
const full = await best(5, `SELECT count(*), max(pos) ${from}`);
const filter = await best(5, `SELECT count(*), max(pos) ${from} WHERE file_path = ${q(target)}`);
console.log(JSON.stringify({full, filter}));
