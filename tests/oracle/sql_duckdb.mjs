// Runs SQL queries in DuckDB for floe's differential SQL tests. Reads a JSON array of query
// strings from the file named on the command line and prints, per query, "##Q <index>", one
// canonical JSON array per row (see duckdb_canon.mjs), then "##END <rows>" or
// "##ERROR <message>".
import {connectDuckDB} from './duckdb_connect.mjs';
import {readFileSync} from 'node:fs';

import {canon, stringify} from './duckdb_canon.mjs';

const queries = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const conn = await connectDuckDB('1');
const out = [];
for (let i = 0; i < queries.length; ++i) {
  out.push('##Q ' + i);
  try {
    const r = await conn.runAndReadAll(queries[i]);
    const types = r.columnTypes();
    const rows = r.getRows();
    for (const row of rows)
      out.push('[' + row.map((v, c) => stringify(canon(v, types[c]))).join(',') + ']');
    out.push('##END ' + rows.length);
  } catch (e) {
    out.push('##ERROR ' + String(e.message).replaceAll('\n', ' '));
  }
}
process.stdout.write(out.join('\n') + '\n');
