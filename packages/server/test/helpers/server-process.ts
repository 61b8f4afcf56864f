import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../../..');
const main = path.join(root, 'packages/server/src/main.ts');

export interface LogLine {
  level: number;
  msg: string;
  err?: { message?: string };
  [key: string]: unknown;
}

/**
 * The server as `npm start` runs it (src/main.ts), as a child process of the test: its JSON log
 * lines kept, its exit awaited, signals sent to it. `env` is added to this process's environment,
 * less the variables named in `omit` (a child that must not inherit the test run's services).
 */
export class ServerProcess {
  readonly lines: LogLine[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;

  constructor(env: Record<string, string>, omit: readonly string[] = []) {
    const inherited = { ...process.env };
    for (const name of omit) delete inherited[name];
    this.child = spawn(process.execPath, ['--import', 'tsx', main], {
      cwd: root,
      env: { ...inherited, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffered = '';
    this.child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const part of parts) {
        try {
          this.lines.push(JSON.parse(part) as LogLine);
        } catch {
          this.lines.push({ level: 60, msg: part });
        }
      }
    });
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8');
    });
    this.exited = new Promise((resolve) =>
      this.child.on('exit', (code, signal) => resolve({ code, signal })),
    );
  }

  async waitForLog(text: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.lines.some((l) => l.msg?.includes(text))) {
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(`no "${text}" in the log:\n${this.describe()}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  /** The log (warnings and worse in full) and stderr, for a failure message. */
  describe(): string {
    return `${this.lines.map((l) => (l.level >= 40 ? JSON.stringify(l) : `${l.level} ${l.msg}`)).join('\n')}\n${this.stderr}`;
  }
}
