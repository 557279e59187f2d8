// The oracle scripts' DuckDB: an in-memory database that never downloads extensions (CI
// machines have no network), with `threads` threads; and SQL string literals.
import {DuckDBInstance} from '@duckdb/node-api';

export async function connectDuckDB(threads = '1') {
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    threads: String(threads),
  });
  return instance.connect();
}

// `s` as a SQL string literal.
export const sqlString = (s) => '\'' + s.replaceAll('\'', '\'\'') + '\'';
