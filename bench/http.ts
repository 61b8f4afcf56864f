/** What the benchmarks share to talk to a server they started as a child process. */

/** Waits until the server at `base` answers /health (up to two minutes). */
export async function waitForHealth(base: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) return;
    } catch {}
    if (i > 600) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * An API caller that keeps the session cookie like a browser and throws on a non-zero code;
 * `session()` is that cookie's value (to hand the account to a browser).
 */
export function apiCaller(base: string) {
  let cookie = '';
  const call = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = cookie ? { cookie } : {};
    let payload: string | FormData | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${base}/api/v1${p}`, { method, headers, body: payload });
    const token = res.headers.getSetCookie().find((c) => c.startsWith('token='));
    if (token) cookie = token.split(';')[0];
    const json = (await res.json()) as { code: number; data: T; message?: string };
    if (json.code !== 0) throw new Error(`${method} ${p}: ${json.code} ${json.message}`);
    return json.data;
  };
  return Object.assign(call, { session: () => cookie.slice('token='.length) });
}

/** A new account signed up through the dev outbox (the server runs with DEV_OUTBOX=1): the caller keeps its cookie. */
export async function signUp(call: ReturnType<typeof apiCaller>): Promise<void> {
  const email = `bench-${Date.now()}@example.com`;
  await call('POST', '/auth/codes', { email, purpose: 'signup' });
  // The code's mail is sent after the request answers (a busy server: a moment later).
  let outbox: { body: string }[] = [];
  for (let i = 0; i < 100 && outbox.length === 0; i++) {
    if (i) await new Promise((r) => setTimeout(r, 100));
    outbox = await call<{ body: string }[]>('GET', `/dev/outbox?email=${encodeURIComponent(email)}`);
  }
  if (outbox.length === 0) throw new Error(`no sign-up code for ${email} in the dev outbox after 10 s`);
  const code = outbox[0].body.match(/\b(\d{6})\b/)![1];
  await call('POST', '/auth/signup', {
    email,
    password: 'bench-pass-1',
    confirmPassword: 'bench-pass-1',
    code,
  });
}

/** A new account (signUp) and one enterprise project of it. */
export async function signUpWithProject(
  call: ReturnType<typeof apiCaller>,
  projectName: string,
): Promise<{ id: number }> {
  await signUp(call);
  return call<{ id: number }>('POST', '/projects', { name: projectName, scenario: 'enterprise' });
}

/**
 * One sample of the server's /metrics (loopback: no token), by its exact name and label text, e.g.
 * `beacon_ingest_lag_seconds_count{kind="telemetry"}`; 0 when the server has none yet.
 */
export async function metricValue(base: string, sample: string): Promise<number> {
  return sampleOf(await (await fetch(`${base}/metrics`)).text(), sample);
}

/** One sample of a /metrics text already read (as metricValue). */
function sampleOf(text: string, sample: string): number {
  for (const line of text.split('\n'))
    if (line.startsWith(`${sample} `)) return Number(line.slice(sample.length + 1));
  return 0;
}

export type JobTotals = Record<string, { count: number; sum: number }>;

/** Each durable job kind's runs and seconds so far, from the server's /metrics (loopback: no token). */
export async function jobSeconds(base: string): Promise<JobTotals> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const out: JobTotals = {};
  for (const m of text.matchAll(/^beacon_job_duration_seconds_(sum|count)\{kind="([^"]+)"\} (\S+)$/gm)) {
    const j = out[m[2]] ?? { count: 0, sum: 0 };
    j[m[1] as 'sum' | 'count'] = Number(m[3]);
    out[m[2]] = j;
  }
  return out;
}

/** The jobs that ran between two readings (the statistics rollup above all): runs and seconds. */
export function jobsBetween(
  before: JobTotals,
  after: JobTotals,
): Record<string, { runs: number; seconds: number }> {
  return Object.fromEntries(
    Object.entries(after)
      .map(
        ([kind, j]) =>
          [
            kind,
            {
              runs: j.count - (before[kind]?.count ?? 0),
              seconds: +(j.sum - (before[kind]?.sum ?? 0)).toFixed(2),
            },
          ] as const,
      )
      .filter(([, j]) => j.runs > 0),
  );
}

/** One scrape of the server's own view of its load: event-loop delay (since the last scrape), pool waits. */
interface LoadSample {
  at: number;
  loopMaxMs: number;
  poolWaiting: number;
  ingestWaiting: number;
}

/**
 * Scrapes /metrics every `everyMs` while the API is probed: the event loop's longest delay between
 * two scrapes (prom-client resets its histogram on each scrape), requests waiting for a database
 * connection, messages waiting in the intake. Tells a slow call that waited for the server's own
 * loop (a long synchronous stretch, a collection) from one that waited for PostgreSQL.
 */
export function watchServerLoad(base: string, everyMs = 2000) {
  const samples: LoadSample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = Date.now();
      try {
        const text = await (await fetch(`${base}/metrics`)).text();
        samples.push({
          at: t,
          loopMaxMs: Math.round(sampleOf(text, 'beacon_nodejs_eventloop_lag_max_seconds') * 1000),
          poolWaiting: sampleOf(text, 'beacon_db_pool_waiting'),
          ingestWaiting: sampleOf(text, 'beacon_ingest_waiting'),
        });
      } catch {}
      const wait = everyMs - (Date.now() - t);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  })();
  return {
    /**
     * The summary, and how many of `slow` (calls over 250 ms) started in a scrape interval whose
     * longest loop delay was at least half the call's time.
     */
    async stop(slow: readonly { at: string; ms: number }[] = []) {
      running = false;
      await loop;
      const loops = samples.map((s) => s.loopMaxMs).sort((a, b) => a - b);
      const pick = (q: number) => loops[Math.min(loops.length - 1, Math.floor(q * loops.length))] ?? 0;
      const loopBound = slow.filter((c) => {
        const start = Date.parse(c.at);
        const s = samples.find((x) => x.at >= start);
        return s !== undefined && s.loopMaxMs >= c.ms / 2;
      }).length;
      return {
        samples: samples.length,
        loopMaxMs: { p50: pick(0.5), p90: pick(0.9), max: pick(1) },
        intervalsWithLoopOver250Ms: loops.filter((l) => l > 250).length,
        poolWaitingMax: Math.max(0, ...samples.map((s) => s.poolWaiting)),
        intervalsWithPoolWaiting: samples.filter((s) => s.poolWaiting > 0).length,
        ingestWaitingMax: Math.max(0, ...samples.map((s) => s.ingestWaiting)),
        slowCalls: slow.length,
        slowCallsInALoopStall: loopBound,
      };
    },
  };
}
