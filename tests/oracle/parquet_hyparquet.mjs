// Prints the rows hyparquet reads from a Parquet file as canonical JSON arrays (see
// parquet_duckdb.mjs). hyparquet turns decimals into doubles; they print as numbers.
import {asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects} from 'hyparquet';
import {compressors} from 'hyparquet-compressors';

import {civil, timeOfDay, ts} from './canonical_text.mjs';

class Tagged {
  constructor(s) {
    this.s = s;
  }
}
const parsers = {
  timestampFromMilliseconds: (v) => new Tagged(ts(BigInt(v) * 1000n, 86400000000n, 1000000n, 6)),
  timestampFromMicroseconds: (v) => new Tagged(ts(BigInt(v), 86400000000n, 1000000n, 6)),
  timestampFromNanoseconds: (v) => new Tagged(ts(BigInt(v), 86400000000000n, 1000000000n, 9)),
  dateFromDays: (v) => new Tagged(civil(BigInt(v))),
  stringFromBytes: (b) => b && new TextDecoder().decode(b),
  jsonFromBytes: (b) => b && new TextDecoder().decode(b),
  uuidFromBytes: (b) => {
    if (!b) return undefined;
    const h = Buffer.from(b).toString('hex');
    return new Tagged(
        `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`);
  },
};
function stringify(x) {
  if (x === null || x === undefined) return 'null';
  if (x instanceof Tagged) return JSON.stringify(x.s);
  if (typeof x === 'bigint') return x.toString();
  if (typeof x === 'number') {
    if (Number.isNaN(x)) return '"NaN"';
    if (x === Infinity) return '"Infinity"';
    if (x === -Infinity) return '"-Infinity"';
    return String(x);
  }
  if (x instanceof Uint8Array) return JSON.stringify(Buffer.from(x).toString('hex'));
  if (Array.isArray(x)) return '[' + x.map(stringify).join(',') + ']';
  if (typeof x === 'object')
    return '{' +
        Object.entries(x).map(([k, v]) => JSON.stringify(k) + ':' + stringify(v)).join(',') + '}';
  return JSON.stringify(x);
}
const file = await asyncBufferFromFile(process.argv[2]);
const metadata = await parquetMetadataAsync(file);
const names = metadata.schema.slice(1).filter((_, i, a) => true);
const rows = await parquetReadObjects({file, metadata, compressors, parsers, utf8: false});
const top = [];
{  // top-level column names in order
  let i = 1;
  const skip = (idx) => {
    let n = metadata.schema[idx].num_children || 0;
    let j = idx + 1;
    while (n-- > 0) j = skip(j);
    return j;
  };
  while (i < metadata.schema.length) {
    top.push(metadata.schema[i].name);
    i = skip(i);
  }
}
// hyparquet leaves TIME as raw integers.
const timeUnits = {};
for (const e of metadata.schema) {
  if (e.logical_type?.type === 'TIME')
    timeUnits[e.name] = e.logical_type.unit;
  else if (e.converted_type === 'TIME_MICROS')
    timeUnits[e.name] = 'MICROS';
  else if (e.converted_type === 'TIME_MILLIS')
    timeUnits[e.name] = 'MILLIS';
}
const timeText = (v, unit) => {
  const micros = unit === 'MILLIS' ? BigInt(v) * 1000n :
      unit === 'NANOS'             ? BigInt(v) / 1000n :
                                     BigInt(v);
  return new Tagged(timeOfDay(micros, 1000000n, 6));
};
const out = [];
for (const r of rows) {
  out.push(
      '[' +
      top.map((n) => {
           const v = r[n];
           return stringify(
               timeUnits[n] && v !== null && v !== undefined ? timeText(v, timeUnits[n]) : v);
         })
          .join(',') +
      ']');
}
process.stdout.write(out.join('\n') + (out.length ? '\n' : ''));
