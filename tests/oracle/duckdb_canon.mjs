// DuckDB values in the canonical JSON form floe's tests compare against (shared by the
// oracle scripts): integers as numbers, floats as numbers ("NaN", "Infinity", "-Infinity"),
// decimals as strings, dates "YYYY-MM-DD", times "HH:MM:SS.ffffff", timestamps
// "YYYY-MM-DDTHH:MM:SS.ffffff" (9 digits for nanos, no zone), binary/fixed as lowercase hex,
// uuid text, structs as objects, lists as arrays, maps as [{"key":k,"value":v}...].
import {DuckDBTypeId} from '@duckdb/node-api';

import {civil, decimal, hex, timeOfDay, ts} from './canonical_text.mjs';

export function canon(v, t) {
  if (v === null || v === undefined) return null;
  switch (t.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return v;
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
      return {raw: v.toString()};
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      if (Number.isNaN(v)) return 'NaN';
      if (v === Infinity) return 'Infinity';
      if (v === -Infinity) return '-Infinity';
      return {raw: Object.is(v, -0) ? '-0.0' : String(v)};
    case DuckDBTypeId.DECIMAL:
      return decimal(v.value, t.scale);
    case DuckDBTypeId.DATE:
      return civil(BigInt(v.days));
    case DuckDBTypeId.TIME:
      return timeOfDay(v.micros, 1000000n, 6);
    case DuckDBTypeId.TIME_TZ:
      return timeOfDay(v.micros, 1000000n, 6);
    case DuckDBTypeId.TIME_NS:
      return timeOfDay(v.nanos / 1000n, 1000000n, 6);
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return ts(v.micros, 86400000000n, 1000000n, 6);
    case DuckDBTypeId.TIMESTAMP_MS:
      return ts(v.millis * 1000n, 86400000000n, 1000000n, 6);
    case DuckDBTypeId.TIMESTAMP_S:
      return ts(v.seconds * 1000000n, 86400000000n, 1000000n, 6);
    case DuckDBTypeId.TIMESTAMP_NS:
      return ts(v.nanos, 86400000000000n, 1000000000n, 9);
    case DuckDBTypeId.VARCHAR:
    case DuckDBTypeId.ENUM:
      return String(v);
    case DuckDBTypeId.BLOB:
      return hex(v.bytes);
    case DuckDBTypeId.UUID:
      return v.toString();
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
      return v.items.map((x) => canon(x, t.valueType));
    case DuckDBTypeId.STRUCT: {
      const o = {};
      for (let i = 0; i < t.entryNames.length; ++i)
        o[t.entryNames[i]] = canon(v.entries[t.entryNames[i]], t.entryTypes[i]);
      return o;
    }
    case DuckDBTypeId.MAP:
      return v.entries.map(
          (e) => ({key: canon(e.key, t.keyType), value: canon(e.value, t.valueType)}));
    default:
      return `unsupported:${t.toString()}`;
  }
}
export function stringify(x) {
  if (x === null) return 'null';
  if (typeof x === 'object' && x.raw !== undefined) return x.raw;
  if (Array.isArray(x)) return '[' + x.map(stringify).join(',') + ']';
  if (typeof x === 'object')
    return '{' +
        Object.entries(x).map(([k, v]) => JSON.stringify(k) + ':' + stringify(v)).join(',') + '}';
  return JSON.stringify(x);
}
