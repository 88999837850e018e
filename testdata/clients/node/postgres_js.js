// postgres.js (the npm package `postgres`) against a server: parameterised
// queries, an error that must come back (not hang), a Date parameter and
// `= any($1)` with arrays, printed as JSON so the output can be compared
// between gpusql and PostgreSQL. Every call has a deadline: a call that
// does not answer in time prints TIMEOUT and the program exits non-zero.
// Usage: TZ=UTC node postgres_js.js HOST PORT
const postgres = require('postgres');

const deadlineMs = 15000;

function withDeadline(label, p) {
  let timer;
  const t = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`TIMEOUT ${label}`)), deadlineMs);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

function show(v) {
  return JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? `${x}n` : x));
}

async function main() {
  const [host, port] = process.argv.slice(2);
  const sql = postgres({
    host, port: Number(port), user: 'postgres', database: 'postgres',
    max: 1, connect_timeout: 10, idle_timeout: 1, onnotice: () => {},
  });
  let failed = false;
  const run = async (label, q) => {
    try {
      const rows = await withDeadline(label, q());
      console.log(label, show(rows.map((r) => ({ ...r }))), rows.count);
    } catch (e) {
      if (e.message.startsWith('TIMEOUT')) {
        console.log(e.message);
        failed = true;
        return;
      }
      console.log(label, 'ERROR', e.code, e.message);
    }
  };

  await run('int', () => sql`SELECT ${41}::integer + 1 AS v`);
  await run('text', () => sql`SELECT upper(${'gpu'}) AS v, ${'a'} || ${'b'} AS w`);
  await run('numeric', () => sql`SELECT ${'10.50'}::numeric(15,2) + 0.25 AS v`);
  await run('bool', () => sql`SELECT NOT ${true} AS v`);
  await run('rows', () => sql`
    SELECT l_orderkey, l_linenumber, l_quantity, l_shipdate, l_shipmode FROM lineitem
    WHERE l_orderkey < ${40} AND l_shipmode = ${'AIR'} ORDER BY l_orderkey, l_linenumber`);
  // An unknown column: postgres.js sends Parse, Describe and Flush and
  // waits for the answer before it sends Sync.
  await run('unknown column', () => sql`SELECT no_such_column FROM lineitem WHERE l_orderkey = ${1}`);
  await run('after the error', () => sql`SELECT count(*)::int AS n FROM lineitem WHERE l_orderkey < ${100}`);
  await run('syntax error', () => sql`SELEC ${1}`);
  await run('division by zero', () => sql`SELECT 1 / (${0}::integer) AS v`);
  // A JS Date is sent as timestamptz.
  await run('date param', () => sql`SELECT ${new Date('2024-01-02T03:04:05.678Z')} AS v`);
  await run('date param compare', () => sql`
    SELECT count(*)::int AS n FROM lineitem WHERE l_shipdate >= ${new Date('1995-01-01T00:00:00Z')}`);
  // Arrays as parameters.
  await run('any int array', () => sql`
    SELECT l_orderkey, l_linenumber FROM lineitem WHERE l_orderkey = any(${[1, 3, 7]}) ORDER BY 1, 2`);
  await run('any text array', () => sql`
    SELECT l_shipmode, count(*)::int AS n FROM lineitem WHERE l_shipmode = any(${['AIR', 'MAIL']}) GROUP BY 1 ORDER BY 1`);
  await run('any empty array', () => sql`SELECT count(*)::int AS n FROM lineitem WHERE l_orderkey = any(${sql.array([], 23)})`);
  // A prepared statement reused, and unsafe (simple protocol).
  for (let i = 0; i < 3; i++) {
    await run(`reused ${i}`, () => sql`SELECT count(*)::int AS n FROM lineitem WHERE l_linenumber = ${i + 1}`);
  }
  await run('unsafe', () => sql.unsafe('SELECT 1 AS a, $1::text AS b', ['x']));
  await run('transaction', () => sql.begin(async (tx) => {
    const [a] = await tx`SELECT count(*)::int AS n FROM lineitem`;
    const [b] = await tx`SELECT ${a.n} + 1 AS m`;
    return [a, b];
  }));
  await withDeadline('end', sql.end({ timeout: 5 }));
  if (failed) {
    process.exit(3);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
