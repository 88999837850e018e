// node-postgres logs in to a server and prints current_user, or, when the
// login fails, "error", the SQLSTATE and the message.
// Usage: node login.js HOST PORT USER PASSWORD
const { Client } = require('pg');

async function main() {
  const [host, port, user, password] = process.argv.slice(2);
  const c = new Client({ host, port: Number(port), user, password, database: 'gpusql' });
  try {
    await c.connect();
  } catch (e) {
    console.log('error', e.code || '-', e.message);
    return;
  }
  const r = await c.query('SELECT current_user AS u');
  console.log(r.rows[0].u);
  await c.end();
}

main().catch((e) => { console.error(e); process.exit(1); });
