// DuckDB's side of floe's merge-on-read benchmark (bench/README.md M1-M3, anchor H13).
// Usage: node merge_on_read_bench_duckdb.mjs CASES_JSON_FILE
//   CASES_JSON_FILE: {"data": DATA_FILE, "runs": N, "cases": [{"name": .., "kind": "clean" |
//   "position" | "equality", "files": [delete files], "key": "id"}, ...]}
// Times, best of N with 1 thread (after a warm-up run), a sum over every column of the data file (so that DuckDB
// decodes every value), with the deletes applied by anti-join:
//   position: read_parquet(DATA, file_row_number = true) ANTI JOIN read_parquet(FILES)
//             ON file_row_number = pos
//   equality: read_parquet(DATA) ANTI JOIN read_parquet(FILES) ON KEY = KEY
// Prints {"cases": {"NAME": {"s": .., "cpu_s": .., "count": .., "key_sum": ".."}, ..}}: wall and
// process CPU seconds, the rows left and the sum of the key column (as text) to check them.
import {readFileSync} from 'node:fs';

import {connectDuckDB, sqlString as q} from './duckdb_connect.mjs';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const c = await connectDuckDB('1');
const cpu = (c0) => {
  const d = process.cpuUsage(c0);
  return (d.user + d.system) / 1e6;
};

const described =
    (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${q(spec.data)})`)).getRowObjects();
// Sums that need every value decoded (DuckDB answers min/max from the row-group statistics).
const agg = (n, t) => {
  if (t === 'VARCHAR' || t === 'BLOB') return `sum(length(d."${n}"))`;
  if (t === 'BOOLEAN') return `count_if(d."${n}")`;
  if (t.startsWith('TIMESTAMP')) return `sum(epoch_us(d."${n}"))`;
  if (t === 'DATE') return `sum(date_diff('day', DATE '1970-01-01', d."${n}"))`;
  return `sum(d."${n}")`;
};
const aggs = described.map((r) => agg(r.column_name, r.column_type)).join(', ');
const list = (files) => '[' + files.map(q).join(', ') + ']';

function query(k) {
  const key = k.key || 'id';
  const select = `SELECT count(*), sum(d."${key}")::VARCHAR, ${aggs}`;
  if (k.kind === 'position') {
    return `${select} FROM read_parquet(${q(spec.data)}, file_row_number = true) d ANTI JOIN ` +
        `read_parquet(${list(k.files)}) p ON d.file_row_number = p.pos`;
  }
  if (k.kind === 'equality') {
    return `${select} FROM read_parquet(${q(spec.data)}) d ANTI JOIN ` +
        `read_parquet(${list(k.files)}) e ON d."${key}" = e."${key}"`;
  }
  return `${select} FROM read_parquet(${q(spec.data)}) d`;
}

// Round robin over the cases (after one warm-up run of each), so that the load of a shared
// machine spreads over all of them; the best of each is kept.
const cases = {};
for (let run = 0; run <= (spec.runs || 3); ++run) {
  for (const k of spec.cases) {
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    const rows = (await c.runAndReadAll(query(k))).getRows();
    const cpuS = cpu(c0);
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    const best = cases[k.name] || {s: Infinity, cpu_s: Infinity};
    cases[k.name] = {
      s: run ? Math.min(best.s, s) : Infinity,
      cpu_s: run ? Math.min(best.cpu_s, cpuS) : Infinity,
      count: Number(rows[0][0]),
      key_sum: String(rows[0][1]),
    };
  }
}
console.log(JSON.stringify({cases}));
