import { DuckDBInstance } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:');
const c = await inst.connect();
await c.run(`SET TimeZone='UTC'`);
const sel = `SELECT
  i::BIGINT AS id,
  CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 2 = 0) END AS b,
  CASE WHEN i < 2 THEN [-128, 127][i+1] ELSE (i % 256 - 128) END::TINYINT AS i8,
  CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 13 % 65536 - 32768) END::SMALLINT AS i16,
  CASE WHEN i < 2 THEN [-2147483648, 2147483647][i+1] ELSE i * 100003 - 150000000 END::INTEGER AS i32,
  CASE WHEN i < 2 THEN [-9223372036854775808, 9223372036854775807][i+1] ELSE i::BIGINT * 3000000000017 END::BIGINT AS i64,
  (i % 256)::UTINYINT AS u8,
  (i * 7 % 65536)::USMALLINT AS u16,
  CASE WHEN i = 0 THEN 4294967295 ELSE i * 1000003 % 4294967296 END::UINTEGER AS u32,
  CASE WHEN i % 9 = 0 THEN NULL ELSE DATE '1900-01-01' + (i * 37 % 100000)::INTEGER END AS d,
  CASE WHEN i % 8 = 0 THEN NULL ELSE TIMESTAMP '1950-06-15 12:34:56.789123' + to_microseconds(i::BIGINT * 9876543210) END AS ts,
  (TIMESTAMP '1969-12-31 23:59:59' + to_microseconds(i::BIGINT * 1234567))::TIMESTAMP_MS AS ts_ms,
  (TIMESTAMP_NS '1969-12-31 23:59:58.999999500' + to_microseconds(i::BIGINT * 1000003))::TIMESTAMP_NS AS ts_ns,
  CASE WHEN i % 6 = 0 THEN NULL ELSE TIMESTAMPTZ '2024-03-10 01:59:59.5+00' + to_microseconds(i::BIGINT * 3600000001) END AS tstz,
  CASE WHEN i < 2 THEN [-9999999.99::DECIMAL(9,2), 9999999.99::DECIMAL(9,2)][i+1] ELSE (i * 12345 % 999999999 - 500000000) / 100 END::DECIMAL(9,2) AS dec9,
  CASE WHEN i < 2 THEN [-99999999999999.9999::DECIMAL(18,4), 99999999999999.9999::DECIMAL(18,4)][i+1] ELSE ((((i::HUGEINT * 98765432101) % 1999999999999999998) - 999999999999999999)::DECIMAL(38,0) * 0.0001::DECIMAL(5,4)) END::DECIMAL(18,4) AS dec18,
  ((i % 2000) - 1000)::DECIMAL(4,0) AS dec4,
  CASE WHEN i % 4 = 0 THEN NULL ELSE (i / 8.0 - 100)::REAL END AS r,
  CASE WHEN i = 0 THEN 1.7976931348623157e308 WHEN i = 1 THEN -4.9e-324 ELSE i / 3.0 - 1000 END::DOUBLE AS dbl,
  CASE WHEN i % 3 = 0 THEN NULL WHEN i % 3 = 1 THEN '' ELSE 'naïve 東京 ' || (i % 50)::VARCHAR || ' "q", x' END AS s,
  ['red', 'green', 'blue'][i % 3 + 1] AS dict,
  CASE WHEN i % 10 = 0 THEN NULL ELSE TIME '00:00:00' + to_microseconds(i::BIGINT * 17280001) END AS t
FROM range(0, 2000) r(i)`;
await c.run(`COPY (${sel}) TO 'duckdb-v1.parquet' (FORMAT parquet, ROW_GROUP_SIZE 1000, COMPRESSION zstd)`);
await c.run(`COPY (${sel}) TO 'duckdb-v2.parquet' (FORMAT parquet, ROW_GROUP_SIZE 700, COMPRESSION zstd, PARQUET_VERSION V2)`);
await c.run(`COPY (${sel}) TO 'duckdb.csv' (HEADER false)`);
// Without the INT32 columns, which DuckDB writes with 64-bit deltas in V2.
const wide = `SELECT id, b, i64, ts, ts_ms, ts_ns, tstz, dec18, r, dbl, s, dict, t FROM (${sel})`;
await c.run(`COPY (${wide}) TO 'duckdb-v2-wide.parquet' (FORMAT parquet, ROW_GROUP_SIZE 700, COMPRESSION zstd, PARQUET_VERSION V2)`);
const r = await c.runAndReadAll(`SELECT * FROM parquet_schema('duckdb-v1.parquet')`);
console.log(JSON.stringify(r.getRowObjectsJson().map(x => [x.name, x.type, x.converted_type, x.logical_type])));
const m = await c.runAndReadAll(`SELECT DISTINCT encodings FROM parquet_metadata('duckdb-v2.parquet')`);
console.log(JSON.stringify(m.getRowObjectsJson()));
