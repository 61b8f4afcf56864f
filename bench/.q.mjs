import pg from 'pg';
const c = new pg.Client({ connectionString: `postgresql://postgres:beacon@127.0.0.1:${process.argv[2]}/beacon` });
await c.connect();
console.log((await c.query(process.argv[3])).rows);
await c.end();
