// DuckDB (@duckdb/node-api) reads a Parquet file that gpusql wrote and
// prints what it sees: one line "name<TAB>TYPE" per column, a line "--",
// then one line per row in the file's order, each value cast to VARCHAR by
// DuckDB and written as a JSON string, or \N for NULL, separated by tabs. query/'s
// TestParquetWriteDuckDB compares it with gpusql's own rows.
// Usage: node duckdb_parquet.js FILE
const { DuckDBInstance } = require('@duckdb/node-api');

async function main() {
  const [file] = process.argv.slice(2);
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  await c.run("SET TimeZone = 'UTC'");
  const src = "read_parquet('" + file.replaceAll("'", "''") + "')";
  const desc = await c.runAndReadAll('DESCRIBE SELECT * FROM ' + src);
  const out = [];
  const names = [];
  for (const [name, type] of desc.getRows()) {
    names.push(name);
    out.push(name + '\t' + type);
  }
  out.push('--');
  const cast = names.map((n) => 'CAST("' + n.replaceAll('"', '""') + '" AS VARCHAR)').join(', ');
  const rows = await c.runAndReadAll('SELECT ' + cast + ' FROM ' + src);
  for (const row of rows.getRows()) {
    out.push(row.map((v) => (v === null ? '\\N' : JSON.stringify(v))).join('\t'));
  }
  process.stdout.write(out.join('\n') + '\n');
}
main().catch((e) => { console.error(e); process.exit(1); });
