// What the UI benchmark measures in one renderer: timings taken inside the page (so Playwright's
// own round trips do not count) and the JS heap through the DevTools protocol.
import type { CDPSession, Page } from '@playwright/test';
import type { BenchFolder } from './store.js';

const MiB = 1024 * 1024;

/** JS heap in use after a full garbage collection, in MiB. */
export async function heapMiB(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const used = metrics.find((m) => m.name === 'JSHeapUsedSize');
  if (!used) throw new Error('Performance.getMetrics gave no JSHeapUsedSize');
  return used.value / MiB;
}

export interface CpuMs {
  /** The renderer's main thread busy in tasks (thread CPU time, not wall time). */
  mainThread: number;
  script: number;
  layoutAndStyle: number;
  /** The whole renderer process (all its threads: GC helpers, compositor, network client). */
  process: number;
}

/** Call `Performance.enable` with `{ timeDomain: 'threadTicks' }` first: durations are then CPU time. */
export async function cpuMs(cdp: CDPSession): Promise<CpuMs> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const s = (name: string) => (metrics.find((m) => m.name === name)?.value ?? NaN) * 1000;
  return { mainThread: s('TaskDuration'), script: s('ScriptDuration'), layoutAndStyle: s('LayoutDuration') + s('RecalcStyleDuration'), process: s('ProcessTime') };
}

export function cpuSince(before: CpuMs, after: CpuMs): CpuMs {
  return {
    mainThread: after.mainThread - before.mainThread,
    script: after.script - before.script,
    layoutAndStyle: after.layoutAndStyle - before.layoutAndStyle,
    process: after.process - before.process,
  };
}

/**
 * Arms a probe for the next folder opening: it notes when the double-click event reaches the page,
 * then when a row showing `first` enters the grid, and resolves after the frame that paints it
 * (the task right after the next animation frame). Await `window.__benchOpen` afterwards.
 */
export async function armOpenProbe(page: Page, first: string): Promise<void> {
  await page.evaluate((label) => {
    const w = window as unknown as { __benchOpen: Promise<{ clickAt: number; paintedAt: number }> };
    w.__benchOpen = new Promise((resolve) => {
      let clickAt = -1;
      const hasRow = () =>
        Array.from(document.querySelectorAll('[role="grid"] [role="row"] [role="gridcell"]')).some((cell) => cell.textContent === label);
      window.addEventListener('dblclick', () => (clickAt = performance.now()), { capture: true, once: true });
      const observer = new MutationObserver(() => {
        if (clickAt < 0 || !hasRow()) return;
        observer.disconnect();
        requestAnimationFrame(() => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => resolve({ clickAt, paintedAt: performance.now() });
          ch.port2.postMessage(null);
        });
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    });
  }, first);
}

export async function openTiming(page: Page): Promise<number> {
  const { clickAt, paintedAt } = await page.evaluate(() => (window as unknown as { __benchOpen: Promise<{ clickAt: number; paintedAt: number }> }).__benchOpen);
  return paintedAt - clickAt;
}

export interface ScrollResult {
  ms: number;
  /** Rows in the DOM at the end, header row included: about a screenful if virtualized. */
  domRows: number;
  /** The grid's aria-rowcount at the end (entries + header row). */
  rowCount: number;
  /** Frames in which the page had to jump to the bottom again because more rows had arrived. */
  jumps: number;
}

/**
 * Scrolls the grid's body to the bottom, every animation frame, until the grid knows it has every
 * entry (aria-rowcount no longer -1), the last entry's row is in the DOM and the view rests at the
 * bottom; the time includes the frame that paints it. All of it in the page: a user holding End.
 */
export async function scrollToEnd(page: Page, folder: BenchFolder, timeoutMs: number): Promise<ScrollResult> {
  return page.evaluate(
    ({ last, timeoutMs }) =>
      new Promise<ScrollResult>((resolve, reject) => {
        const grid = document.querySelector('[role="grid"]');
        const body = grid ? Array.from(grid.querySelectorAll('[role="rowgroup"]')).at(-1) : undefined;
        if (!grid || !body) return reject(new Error('no grid body to scroll'));
        const t0 = performance.now();
        let jumps = 0;
        const rows = () => grid.querySelectorAll('[role="row"]');
        const lastShown = () => Array.from(rows()).some((r) => Array.from(r.querySelectorAll('[role="gridcell"]')).some((c) => c.textContent === last));
        const frame = () => {
          if (performance.now() - t0 > timeoutMs) return reject(new Error(`not at the end after ${timeoutMs} ms (aria-rowcount ${grid.getAttribute('aria-rowcount')})`));
          const atBottom = body.scrollTop + body.clientHeight >= body.scrollHeight - 1;
          const complete = grid.getAttribute('aria-rowcount') !== '-1';
          if (atBottom && complete && lastShown()) {
            const ch = new MessageChannel();
            ch.port1.onmessage = () =>
              resolve({ ms: performance.now() - t0, domRows: rows().length, rowCount: Number(grid.getAttribute('aria-rowcount')), jumps });
            // The frame that paints the last row, then the task after it.
            requestAnimationFrame(() => ch.port2.postMessage(null));
            return;
          }
          if (!atBottom) {
            body.scrollTop = body.scrollHeight;
            jumps++;
          }
          requestAnimationFrame(frame);
        };
        frame();
      }),
    { last: folder.last, timeoutMs },
  );
}

export interface EndResult {
  ms: number;
  /** End key presses sent: one every frame until the last entry had the focus (a user holding End). */
  presses: number;
  /** The grid's aria-rowcount at the end (entries + header row). */
  rowCount: number;
}

/**
 * Holds End in the grid: a keydown every animation frame until the focused row (the grid's
 * aria-activedescendant) is the folder's last entry, painted. Before End loaded the rest of the
 * folder, each press went to the last row loaded so far and the next page came as the view
 * reached it; now one press loads the rest and the presses after it change nothing.
 */
export async function pressEndToLast(page: Page, folder: BenchFolder, timeoutMs: number): Promise<EndResult> {
  return page.evaluate(
    ({ last, timeoutMs }) =>
      new Promise<EndResult>((resolve, reject) => {
        const grid = document.querySelector<HTMLElement>('[role="grid"]');
        if (!grid) return reject(new Error('no grid to press End in'));
        grid.focus();
        const t0 = performance.now();
        let presses = 0;
        const focusedLast = () => {
          const id = grid.getAttribute('aria-activedescendant');
          const cell = id ? document.getElementById(id)?.querySelector('[role="gridcell"]') : null;
          return cell?.textContent === last;
        };
        const frame = () => {
          if (performance.now() - t0 > timeoutMs) return reject(new Error(`End did not reach the last entry after ${timeoutMs} ms (aria-rowcount ${grid.getAttribute('aria-rowcount')})`));
          if (focusedLast()) {
            const ch = new MessageChannel();
            ch.port1.onmessage = () => resolve({ ms: performance.now() - t0, presses, rowCount: Number(grid.getAttribute('aria-rowcount')) });
            // The frame that paints it, then the task after it.
            requestAnimationFrame(() => ch.port2.postMessage(null));
            return;
          }
          grid.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', code: 'End', bubbles: true, cancelable: true }));
          presses++;
          requestAnimationFrame(frame);
        };
        frame();
      }),
    { last: folder.last, timeoutMs },
  );
}
