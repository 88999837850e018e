// node-postgres against a server: parameterised queries of each type,
// printed as JSON (node-postgres's own parsing of the results), so the
// output can be compared between gpusql and PostgreSQL.
// Usage: TZ=UTC node params.js HOST PORT
const { Client } = require('pg');

async function main() {
  const [host, port] = process.argv.slice(2);
  const c = new Client({ host, port: Number(port), user: 'postgres', database: 'postgres' });
  await c.connect();
  const cases = [
    ['int', 'SELECT $1::integer + 1 AS v', [41]],
    ['bigint', 'SELECT $1::bigint * 2 AS v', ['1099511627776']],
    ['float', 'SELECT $1::double precision / 4 AS v', [1.5]],
    ['numeric', 'SELECT $1::numeric(15,2) + 0.25 AS v', ['10.50']],
    ['text', 'SELECT upper($1) AS v', ['gpu']],
    ['bool', 'SELECT NOT $1::boolean AS v', [true]],
    ['date', 'SELECT $1::date + 1 AS v', ['1996-02-28']],
    ['timestamp', 'SELECT $1::timestamp AS v', ['2024-01-02 03:04:05']],
    ['null', 'SELECT $1::integer IS NULL AS v', [null]],
    ['untyped', 'SELECT l_orderkey, l_linenumber, l_quantity, l_shipdate, l_shipmode FROM lineitem'
      + ' WHERE l_orderkey < $1 AND l_shipdate >= $2 AND l_shipmode = $3 AND l_quantity > $4'
      + ' ORDER BY l_orderkey, l_linenumber', [300, '1995-01-01', 'AIR', '20.5']],
    ['aggregate', 'SELECT l_returnflag, count(*), sum(l_quantity), min(l_shipdate) FROM lineitem'
      + ' WHERE l_discount >= $1 GROUP BY l_returnflag ORDER BY 1', ['0.05']],
  ];
  for (const [label, text, values] of cases) {
    try {
      const r = await c.query(text, values);
      console.log(label, JSON.stringify(r.fields.map((f) => f.name)));
      for (const row of r.rows) console.log('  ', JSON.stringify(row));
    } catch (e) {
      console.log(label, 'ERROR', e.code, e.message);
    }
  }
  // A named prepared statement, run twice.
  for (const v of [3, 4]) {
    const r = await c.query({ name: 'byorder', text: 'SELECT count(*) AS n FROM lineitem WHERE l_orderkey <= $1', values: [v] });
    console.log('named', v, JSON.stringify(r.rows));
  }
  await c.end();
}
main().catch((e) => { console.error(e); process.exit(1); });
