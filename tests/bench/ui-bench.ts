/**
 * UI benchmark (`BENCH=ui npm run bench`): the browser build in Debian's Chromium against the real
 * `coffer serve --ui`, opening a folder of 100,000 objects next to one of 100 in the same run.
 * A measurement, not a test: ONE JSON object on stdout (progress on stderr), no assertions.
 *
 * Per folder and run, in a fresh browser context (empty query cache): the time from the
 * double-click that opens the folder to the frame that paints its first row; the time to scroll
 * to the end with every page loaded; in another fresh context, the time from End to the last
 * entry focused and painted (holding End: a press every frame); the JS heap after a forced GC before opening, once open and
 * at the end; the rows in the DOM at the end (virtualization); how long the server took for the
 * listings, to tell its share from the renderer's. Runs alternate small and big
 * folders so load on the machine hits both alike; medians are reported.
 *
 * Env: BENCH_UI_RUNS (3 scrolls to the end), BENCH_UI_OPEN_RUNS (7 openings), BENCH_UI_BIG (100000; smaller for a quick try), BENCH_UI_TIMEOUT_MS
 * (600000: the whole section stops, cleans up and fails after it), BENCH_UI_BUILD (auto|always|never).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Browser, type Page, type Request } from '@playwright/test';
import { armOpenProbe, cpuMs, cpuSince, heapMiB, openTiming, pressEndToLast, scrollToEnd, type CpuMs, type EndResult, type ScrollResult } from './ui/measure.js';
import { median, progressLog, round as roundTo } from './stats.js';
import { benchFolder, ensureRendererBuilt, freePort, seed, serve, stop, type BenchFolder, type Served } from './ui/store.js';

/** Runs that scroll to the end and press End (slow); every run, up to OPEN_RUNS, measures the opening. */
const RUNS = Number(process.env.BENCH_UI_RUNS ?? 3);
const OPEN_RUNS = Number(process.env.BENCH_UI_OPEN_RUNS ?? 7);
const BIG = Number(process.env.BENCH_UI_BIG ?? 100_000);
const SMALL = 100;
const TIMEOUT_MS = Number(process.env.BENCH_UI_TIMEOUT_MS ?? 600_000);
const CONTAINER = 'bench';
const VIEWPORT = { width: 1280, height: 800 };

const runStart = performance.now();
const elapsed = () => performance.now() - runStart;
const log = progressLog('ui-bench');
/** The UI figures are mostly milliseconds: one decimal unless a figure says otherwise. */
const round = (x: number, digits = 1) => roundTo(x, digits);

const root = mkdtempSync(join(os.tmpdir(), 'coffer-ui-bench-'));
let served: Served | undefined;
let browser: Browser | undefined;

async function cleanUp(): Promise<void> {
  const closing = browser?.close().catch(() => undefined);
  await Promise.race([closing, new Promise((r) => setTimeout(r, 10_000).unref())]);
  if (served) await stop(served.child);
  rmSync(root, { recursive: true, force: true });
}

// The whole section is bounded: past the deadline it cleans up and fails, whatever it was doing.
const deadline = setTimeout(() => {
  log(`global timeout (${TIMEOUT_MS} ms): stopping`);
  void cleanUp().finally(() => process.exit(1));
}, TIMEOUT_MS);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanUp().finally(() => process.exit(1)));

interface OpenResult {
  openMs: number;
  /** Request-to-last-byte time of the first listFolder call: the server's and the network's share of openMs. */
  firstPageWaitMs: number;
  openCpu: CpuMs;
  heapBeforeOpenMiB: number;
  heapAfterOpenMiB: number;
}

interface ScrollRun {
  scroll: ScrollResult;
  scrollCpu: CpuMs;
  heapAfterScrollMiB: number;
  /** listFolder calls the renderer made for this folder, the first page included. */
  listCalls: number;
  /** Their summed request-to-last-byte time (they run one after another). */
  listWaitMs: number;
}

interface EndRun {
  end: EndResult;
  endCpu: CpuMs;
  /** listFolder calls after the first page. */
  listCalls: number;
}

function folderRow(page: Page, label: string) {
  return page
    .getByRole('grid', { name: /^Contents of / })
    .getByRole('row')
    .filter({ has: page.getByRole('gridcell', { name: label, exact: true }) });
}

/** Opens the folder in a fresh browser context (empty query cache), then scrolls to its end or presses End if asked. */
async function measureRun(url: string, folder: BenchFolder, then: 'scroll' | 'end' | null): Promise<OpenResult & Partial<ScrollRun> & Partial<EndRun>> {
  const context = await browser!.newContext({ viewport: VIEWPORT, locale: 'en-US', timezoneId: 'UTC' });
  try {
    // tsx compiles with esbuild's keepNames, which wraps the named helpers inside our page
    // functions in __name(...); the page has no such helper, so give it a do-nothing one.
    await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const cdp = await context.newCDPSession(page);
    // Durations in thread CPU time: what the renderer costs, less swayed by other load on the machine.
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const waits: number[] = [];
    const isList = (r: Request) => r.url().endsWith('/_coffer/rpc') && !!r.postData()?.includes('listFolder');
    page.on('requestfinished', (r) => {
      if (isList(r)) waits.push(r.timing().responseEnd);
    });
    await page.goto(url);
    await page.getByRole('table', { name: 'Containers' }).getByRole('button', { name: CONTAINER, exact: true }).click();
    const row = folderRow(page, folder.label);
    await row.waitFor({ state: 'visible' });
    const heapBeforeOpenMiB = await heapMiB(cdp);
    await armOpenProbe(page, folder.first);
    const skip = waits.length;
    const cpuBeforeOpen = await cpuMs(cdp);
    await row.dblclick();
    const openMs = await openTiming(page);
    const openCpu = cpuSince(cpuBeforeOpen, await cpuMs(cdp));
    const heapAfterOpenMiB = await heapMiB(cdp);
    const opened = { openMs, firstPageWaitMs: waits[skip] ?? NaN, openCpu, heapBeforeOpenMiB, heapAfterOpenMiB };
    if (then === null) return opened;
    if (then === 'end') {
      const cpuBeforeEnd = await cpuMs(cdp);
      const end = await pressEndToLast(page, folder, Math.max(5_000, TIMEOUT_MS - elapsed() - 20_000));
      return { ...opened, end, endCpu: cpuSince(cpuBeforeEnd, await cpuMs(cdp)), listCalls: waits.length - skip - 1 };
    }
    const cpuBeforeScroll = await cpuMs(cdp);
    const scroll = await scrollToEnd(page, folder, Math.max(5_000, TIMEOUT_MS - elapsed() - 20_000));
    const scrollCpu = cpuSince(cpuBeforeScroll, await cpuMs(cdp));
    const heapAfterScrollMiB = await heapMiB(cdp);
    const mine = waits.slice(skip);
    return { ...opened, scroll, scrollCpu, heapAfterScrollMiB, listCalls: mine.length, listWaitMs: mine.reduce((a, b) => a + b, 0) };
  } finally {
    await context.close();
  }
}

function medCpu(runs: CpuMs[]): CpuMs {
  const m = (pick: (c: CpuMs) => number) => round(median(runs.map(pick)));
  return { mainThread: m((c) => c.mainThread), script: m((c) => c.script), layoutAndStyle: m((c) => c.layoutAndStyle), process: m((c) => c.process) };
}

function summarize(folder: BenchFolder, opens: OpenResult[], scrolls: ScrollRun[], ends: EndRun[]) {
  const med = <T>(runs: T[], pick: (r: T) => number, digits = 1) => round(median(runs.map(pick)), digits);
  const scrollMs = med(scrolls, (r) => r.scroll.ms, 0);
  return {
    endRuns: ends.length,
    endToLastRowMs: med(ends, (r) => r.end.ms, 0),
    endToLastRowMsRuns: ends.map((r) => round(r.end.ms, 0)),
    endPresses: med(ends, (r) => r.end.presses, 0),
    endListFolderCallsAfterFirst: med(ends, (r) => r.listCalls, 0),
    endCpuMs: medCpu(ends.map((r) => r.endCpu)),
    entries: folder.count,
    openRuns: opens.length,
    firstRowsPaintedMs: med(opens, (r) => r.openMs),
    firstRowsPaintedMsRuns: opens.map((r) => round(r.openMs)),
    firstPageWaitMs: med(opens, (r) => r.firstPageWaitMs),
    openCpuMs: medCpu(opens.map((r) => r.openCpu)),
    scrollRuns: scrolls.length,
    scrollToEndMs: scrollMs,
    scrollToEndMsRuns: scrolls.map((r) => round(r.scroll.ms, 0)),
    scrollToEndMsPer1000Entries: round((scrollMs / folder.count) * 1000),
    scrollCpuMs: medCpu(scrolls.map((r) => r.scrollCpu)),
    listFolderCalls: med(scrolls, (r) => r.listCalls, 0),
    listFolderWaitMs: med(scrolls, (r) => r.listWaitMs, 0),
    heapMiB: {
      beforeOpen: med(opens, (r) => r.heapBeforeOpenMiB, 2),
      afterOpen: med(opens, (r) => r.heapAfterOpenMiB, 2),
      afterScrollToEnd: med(scrolls, (r) => r.heapAfterScrollMiB, 2),
    },
    domRowsAtEnd: med(scrolls, (r) => r.scroll.domRows, 0),
    ariaRowCountAtEnd: med(scrolls, (r) => r.scroll.rowCount, 0),
    bottomJumps: med(scrolls, (r) => r.scroll.jumps, 0),
  };
}

async function main() {
  const small = benchFolder('small', SMALL);
  const big = benchFolder('big', BIG);
  const build = ensureRendererBuilt(log);
  log(`seeding ${SMALL} + ${BIG} objects`);
  const seeded = await seed(join(root, 'store'), CONTAINER, [small, big], log);
  log(`seeded ${seeded.objects} objects in ${seeded.seconds.toFixed(1)} s; starting coffer serve --ui`);
  served = await serve(join(root, 'store'), await freePort());
  browser = await chromium.launch({
    executablePath: process.env.COFFER_E2E_CHROMIUM ?? '/usr/lib/chromium/chromium',
    args: ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-gpu', '--no-sandbox', '--enable-precise-memory-info'],
  });
  const opens = new Map<BenchFolder, OpenResult[]>([[small, []], [big, []]]);
  const scrolls = new Map<BenchFolder, ScrollRun[]>([[small, []], [big, []]]);
  const ends = new Map<BenchFolder, EndRun[]>([[small, []], [big, []]]);
  const total = Math.max(OPEN_RUNS, RUNS);
  for (let run = 1; run <= total; run++) {
    for (const folder of [small, big]) {
      const r = await measureRun(served.url, folder, run <= RUNS ? 'scroll' : null);
      opens.get(folder)!.push(r);
      let line = `run ${run}/${total} ${folder.label} (${folder.count}): first rows ${r.openMs.toFixed(0)} ms (first page ${r.firstPageWaitMs.toFixed(0)} ms)`;
      if (r.scroll) {
        scrolls.get(folder)!.push(r as ScrollRun);
        line += `, scroll to end ${r.scroll.ms.toFixed(0)} ms, heap ${r.heapAfterOpenMiB.toFixed(1)} -> ${r.heapAfterScrollMiB!.toFixed(1)} MiB, ${r.scroll.domRows} DOM rows`;
      }
      if (run <= RUNS) {
        const e = await measureRun(served.url, folder, 'end');
        ends.get(folder)!.push(e as EndRun);
        line += `; End to the last entry ${e.end!.ms.toFixed(0)} ms (${e.end!.presses} presses, ${e.listCalls} more pages)`;
      }
      log(line);
    }
  }
  const s = summarize(small, opens.get(small)!, scrolls.get(small)!, ends.get(small)!);
  const b = summarize(big, opens.get(big)!, scrolls.get(big)!, ends.get(big)!);
  const k = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));
  const ratios = [
    { name: `first rows painted ${k(BIG)}/${k(SMALL)}`, value: round(b.firstRowsPaintedMs / s.firstRowsPaintedMs, 3), target: '<= 1.5', note: `the first page paints at once whatever the folder size (but it is 1,000 entries against ${SMALL}); server share ${b.firstPageWaitMs} vs ${s.firstPageWaitMs} ms` },
    { name: `first rows renderer main-thread CPU ${k(BIG)}/${k(SMALL)}`, value: round(b.openCpuMs.mainThread / s.openCpuMs.mainThread, 3), target: 'informational', note: `${b.openCpuMs.mainThread} vs ${s.openCpuMs.mainThread} ms of CPU: the wall-time ratio without the machine's other load` },
    { name: `DOM rows at end ${k(BIG)}/${k(SMALL)}`, value: round(b.domRowsAtEnd / s.domRowsAtEnd, 3), target: '<= 1.5', note: 'virtualized: about a screenful of rows either way' },
    { name: `End to the last entry of ${k(BIG)} ms`, value: b.endToLastRowMs, target: '<= 2000', note: `from the first End to the last entry focused and painted; ${b.endListFolderCallsAfterFirst} listFolder calls after the first page, ${b.endPresses} presses (one a frame)` },
    { name: `End to the last entry ${k(BIG)}/${k(SMALL)}`, value: round(b.endToLastRowMs / s.endToLastRowMs, 3), target: 'informational', note: `${b.endToLastRowMs} vs ${s.endToLastRowMs} ms: the ${SMALL}-entry folder is all loaded already, its figure is a frame or two` },
    { name: `scroll-to-end ms per 1000 entries (${k(BIG)})`, value: b.scrollToEndMsPer1000Entries, target: 'informational', note: `${b.listFolderCalls} listFolder calls (the first page 1,000 entries, then up to 10,000), fetched as the view nears the loaded end; ${b.listFolderWaitMs} ms of the ${b.scrollToEndMs} ms waiting on the server` },
    { name: `scroll-to-end renderer main-thread CPU ms per 1000 entries (${k(BIG)})`, value: round((b.scrollCpuMs.mainThread / BIG) * 1000), target: 'informational', note: `of which script ${b.scrollCpuMs.script} ms, layout and style ${b.scrollCpuMs.layoutAndStyle} ms in all; whole renderer process ${b.scrollCpuMs.process} ms` },
    { name: `scroll-to-end ms per 1000 entries ${k(BIG)}/${k(SMALL)}`, value: round(b.scrollToEndMsPer1000Entries / s.scrollToEndMsPer1000Entries, 3), target: 'informational', note: 'the 100-entry folder is one page, so its figure is mostly fixed cost' },
    { name: `heap after scroll ${k(BIG)} - ${k(SMALL)} MiB`, value: round(b.heapMiB.afterScrollToEnd - s.heapMiB.afterScrollToEnd, 2), target: 'informational', note: 'what holding every loaded entry costs the renderer' },
    { name: `heap after open ${k(BIG)} - ${k(SMALL)} MiB`, value: round(b.heapMiB.afterOpen - s.heapMiB.afterOpen, 2), target: 'informational', note: 'one page loaded in either case' },
  ];
  return {
    setup: {
      seed: { ...seeded, seconds: round(seeded.seconds), how: 'engine API directly, { noSync: true } for seeding only (coffer serve reopens the store with the durable defaults); 0-99 byte bodies stored inline' },
      renderer: build,
      browser: `Chromium ${browser.version()}, headless, viewport ${VIEWPORT.width}x${VIEWPORT.height}`,
      heap: 'CDP Performance.getMetrics JSHeapUsedSize after HeapProfiler.collectGarbage',
      cpu: "CDP Performance.getMetrics with timeDomain 'threadTicks': TaskDuration (main thread), ScriptDuration, Layout+RecalcStyleDuration, ProcessTime deltas, in CPU ms",
      timings: 'taken in the page: dblclick event to the task after the frame that paints the first row; scroll = jump to the bottom every frame until aria-rowcount is final and the last row is painted; End = an End keydown on the grid every frame until the last entry is the focused row, painted',
    },
    folders: { [String(SMALL)]: s, [String(BIG)]: b },
    ratios,
    seconds: round(elapsed() / 1000),
  };
}

try {
  const out = await main();
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
} catch (err) {
  log(`failed: ${(err as Error).stack ?? String(err)}`);
  process.exitCode = 1;
} finally {
  clearTimeout(deadline);
  await cleanUp();
}
