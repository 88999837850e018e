// node-postgres actions for the introspection capture: node node_clients.js HOST PORT
// (run with NODE_PATH pointing at testdata/clients/node/node_modules).
const { Client } = require('pg');

async function main() {
  const [host, port] = process.argv.slice(2);
  const cfg = (app) => ({ host, port: Number(port), user: 'postgres', database: 'postgres', application_name: app });
  let c = new Client(cfg('cap_node_connect'));
  await c.connect();
  await c.end();
  c = new Client(cfg('cap_node_query'));
  await c.connect();
  await c.query('SELECT l_orderkey, l_shipmode FROM lineitem WHERE l_orderkey > $1 AND l_shipmode = $2', [1, 'AIR']);
  await c.end();
}
main().catch((e) => { console.error(e); process.exit(1); });
