// DuckDB's side of floe's Parquet benchmark (bench/README.md Q1/Q2, anchors H11/H12).
// Usage: node parquet_bench_duckdb.mjs FLOE_FILE OUT_DIR CODEC THREADS PROJECTIONS
//   PROJECTIONS: JSON {"name": ["col", ...], ...}; an empty list means every column.
// 1. Loads FLOE_FILE into a table and writes it with COPY (CODEC; zstd at level 3, as floe;
//    field ids 1..N in column order, 122,880-row row groups: DuckDB's default) to
//    OUT_DIR/duckdb_out.parquet, timing the COPY (best of 2).
// 2. Times reading both files (floe's and DuckDB's) with every projection: a sum over each
//    projected column (of lengths, for strings), so DuckDB decodes every value (best of 3).
// 3. Reads back the aggregates of every column of floe's file, as DuckDB computes them, for the
//    benchmark to compare with the sums of the rows it wrote (Q2: identical sums).
// Prints {"rows":..,"write_s":..,"write_cpu_s":..,"reads":{"floe/all":{"s":..,"cpu_s":..},..},
// "sums":{"count":"..","id":"..",..}} (sums as text: they may pass 64 bits).
// Wall and process CPU time (user + system, every thread).
import {connectDuckDB, sqlString as q} from './duckdb_connect.mjs';

const [floeFile, outDir, codec = 'zstd', threads = '1', projectionsJson = '{"all":[]}'] =
    process.argv.slice(2);
const projections = JSON.parse(projectionsJson);
const c = await connectDuckDB(threads);
const cpu = (c0) => {
  const d = process.cpuUsage(c0);
  return (d.user + d.system) / 1e6;
};
async function best(runs, f) {
  let s = Infinity, cpuS = Infinity;
  for (let i = 0; i < runs; ++i) {
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    await f();
    cpuS = Math.min(cpuS, cpu(c0));
    s = Math.min(s, Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return {s, cpu_s: cpuS};
}

const described = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${q(floeFile)})`))
                      .getRowObjects();
const cols = described.map((r) => r.column_name);
const types = Object.fromEntries(described.map((r) => [r.column_name, r.column_type]));
// An aggregate that needs every value decoded: DuckDB answers min/max from row-group statistics
// without reading the pages, but not sums.
const agg = (n) => {
  const t = types[n];
  if (t === 'VARCHAR' || t === 'BLOB') return `sum(length("${n}"))`;
  if (t === 'BOOLEAN') return `count_if("${n}")`;
  if (t.startsWith('TIMESTAMP')) return `sum(epoch_us("${n}"))`;
  if (t === 'DATE') return `sum(date_diff('day', DATE '1970-01-01', "${n}"))`;
  return `sum("${n}")`;
};
const rows =
    Number((await c.runAndReadAll(`SELECT count(*)::BIGINT n FROM read_parquet(${q(floeFile)})`))
               .getRowObjects()[0]
               .n);
await c.run(`CREATE TABLE t AS SELECT * FROM read_parquet(${q(floeFile)})`);
const duckFile = outDir + '/duckdb_out.parquet';
const fieldIds = '{' + cols.map((n, i) => `"${n}": ${i + 1}`).join(', ') + '}';
const level = codec === 'zstd' ? ', COMPRESSION_LEVEL 3' : '';
const write = await best(2, () => c.run(`COPY t TO ${q(duckFile)} (FORMAT parquet, COMPRESSION ${
                                    codec}${level}, FIELD_IDS ${fieldIds})`));
await c.run('DROP TABLE t');

const reads = {};
for (const [fileName, file] of [['floe', floeFile], ['duckdb', duckFile]]) {
  for (const [name, list] of Object.entries(projections)) {
    const use = list.length ? list : cols;
    const aggs = use.map(agg).join(', ');
    reads[`${fileName}/${name}`] =
        await best(3, () => c.runAndReadAll(`SELECT count(*), ${aggs} FROM read_parquet(${q(file)})`));
  }
}
const sumRow = (await c.runAndReadAll(`SELECT count(*), ${cols.map(agg).join(', ')} FROM read_parquet(${
                   q(floeFile)})`))
                   .getRows()[0];
const sums = {count: String(sumRow[0])};
cols.forEach((n, i) => { sums[n] = String(sumRow[i + 1]); });
console.log(JSON.stringify(
    {rows, write_s: write.s, write_cpu_s: write.cpu_s, duckdb_file: duckFile, reads, sums}));
