/**
 * bench/idle-screens — what a console screen costs the browser while it sits open and nothing
 * happens: an administrator's tabs stay open for hours. For each screen, headless Chromium (software
 * rendering, as on a machine without a GPU) signs up, opens the demo WLAN project, lets the screen
 * settle, then measures over a window: the CPU of every Chromium process (renderer, GPU and browser
 * processes, from /proc, as a share of one core), the renderer's main-thread task time
 * (DevTools Performance metrics), the style recalculations, and the animations running on it.
 *
 *   npm start                                   # the console with its demo fleet, in another shell
 *   npm run bench:idle-screens -w @beacon/bench -- [--base http://127.0.0.1:8080] [--window-ms 10000]
 *        [--settle-ms 4000] [--project 500000] [--screens "/manage/devconf /manage/wirelessconf"]
 *
 * Needs no other Chromium running (its processes are counted by name) and CHROMIUM_PATH or
 * /usr/bin/chromium. Prints one line per screen and the whole as JSON (bench/RESULTS.md).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../e2e/helpers/chromium.ts';
import { opt } from './args.ts';
import { apiCaller, signUp } from './http.ts';

const base = opt('base', 'http://127.0.0.1:8080');
const windowMs = Number(opt('window-ms', '10000'));
const settleMs = Number(opt('settle-ms', '4000'));
const projectId = opt('project', '500000');
const screens = opt(
  'screens',
  '/overview/preview /overview/list /manage/status /manage/visualization/td /manage/visualization/topo ' +
    '/manage/devconf /manage/networkconf/netset /manage/networkconf/vlan /manage/wirelessconf /manage/rfconf ' +
    '/manage/devsrunstat /manage/onlinestat /manage/onlinelist /manage/authority /manage/runlog ' +
    '/manage/alarminfo /manage/backup',
).split(/\s+/);

/** CPU seconds (user + system) of every process named chromium. */
function chromiumCpuSeconds(): number {
  let pids: string[] = [];
  try {
    pids = execFileSync('pgrep', ['chromium']).toString().split(/\s+/).filter(Boolean);
  } catch {
    return 0;
  }
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended between pgrep and the read
    }
  }
  return ticks / 100;
}

async function main(): Promise<void> {
  const browser = await chromium.launch({
    executablePath: findChromium() ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  // The account is the bench's own (bench/http.ts); the browser gets its session cookie.
  const call = apiCaller(base);
  await signUp(call);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: base });
  await context.addCookies([{ name: 'token', value: call.session(), url: base }]);
  const page = await context.newPage();
  await page.goto('/overview/list');
  await page.getByTestId(`project-row-${projectId}`).click();
  await page.waitForURL('**/overview/preview');

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () =>
    Object.fromEntries(
      (await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value] as const),
    ) as Record<string, number>;

  const rows = [];
  for (const screen of screens) {
    await page.goto(screen);
    await page.waitForTimeout(settleMs);
    const before = await metrics();
    const cpuBefore = chromiumCpuSeconds();
    const started = performance.now();
    await page.waitForTimeout(windowMs);
    const after = await metrics();
    const cpuAfter = chromiumCpuSeconds();
    const seconds = (performance.now() - started) / 1000;
    const animations = await page.evaluate(() =>
      document
        .getAnimations()
        .filter((a) => a.playState === 'running')
        .map((a) => (a instanceof CSSAnimation ? a.animationName : a.id)),
    );
    const row = {
      screen,
      chromiumCpuPercent: Number(((100 * (cpuAfter - cpuBefore)) / seconds).toFixed(1)),
      rendererTaskPercent: Number(
        ((100 * (after.TaskDuration! - before.TaskDuration!)) / seconds).toFixed(1),
      ),
      styleRecalcs: after.RecalcStyleCount! - before.RecalcStyleCount!,
      animations: [...new Set(animations)],
    };
    rows.push(row);
    console.log(
      `${screen.padEnd(28)} Chromium ${String(row.chromiumCpuPercent).padStart(5)} % of a core, renderer tasks ${row.rendererTaskPercent} %, ${row.styleRecalcs} style recalcs, animations: ${row.animations.join(', ') || 'none'}`,
    );
  }
  await browser.close();
  console.log(JSON.stringify({ base, windowMs, settleMs, rows }, null, 2));
}

await main();
