// Prints the rows DuckDB reads from Parquet files, one canonical JSON array per row, so floe's
// reader can be compared with an independent implementation. Usage:
//   node parquet_duckdb.mjs FILE...           rows:   "##FILE <path>", rows..., "##END <count>"
//   node parquet_duckdb.mjs --schema FILE...  parquet_schema() rows with field_id as JSON lines
//   node parquet_duckdb.mjs --exec SQL...      runs statements (writes test files)
// Canonical values: integers as numbers, floats as numbers ("NaN", "Infinity", "-Infinity"),
// decimals as strings, dates "YYYY-MM-DD", times "HH:MM:SS.ffffff", timestamps
// "YYYY-MM-DDTHH:MM:SS.ffffff" (9 digits for nanos, no zone), binary/fixed as lowercase hex,
// uuid text, structs as objects, lists as arrays, maps as [{"key":k,"value":v}...].
import {connectDuckDB, sqlString as q} from './duckdb_connect.mjs';

import {canon, stringify} from './duckdb_canon.mjs';

const args = process.argv.slice(2);
const schemaMode = args[0] === '--schema';
const execMode = args[0] === '--exec';  // --exec SQL...: runs statements (e.g. COPY ... TO parquet)
const files = schemaMode || execMode ? args.slice(1) : args;

const conn = await connectDuckDB('1');

const out = [];
const flush = () => {
  if (out.length) {
    process.stdout.write(out.join('\n') + '\n');
    out.length = 0;
  }
};
for (const f of files) {
  if (execMode) {
    await conn.run(f);
    continue;
  }
  if (schemaMode) {
    const r = await conn.runAndReadAll(
        `SELECT name, type, converted_type, logical_type, field_id, repetition_type, num_children FROM parquet_schema(${
            q(f)})`);
    for (const row of r.getRowObjectsJson()) out.push(JSON.stringify(row));
    flush();
    continue;
  }
  out.push('##FILE ' + f);
  try {
    const r =
        await conn.runAndReadAll(`SELECT * FROM read_parquet(${q(f)}, hive_partitioning = false)`);
    const types = r.columnTypes();
    const rows = r.getRows();
    for (const row of rows)
      out.push('[' + row.map((v, i) => stringify(canon(v, types[i]))).join(',') + ']');
    out.push('##END ' + rows.length);
  } catch (e) {
    out.push('##ERROR ' + String(e.message).replaceAll('\n', ' '));
  }
  flush();
}
flush();
