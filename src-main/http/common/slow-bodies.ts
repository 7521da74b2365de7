import type { IncomingMessage, ServerResponse } from 'node:http';

/** How fast a request body must arrive once its grace period is over. */
export interface BodyRate {
  graceMs: number;
  /** Average bytes per second since the body started, required after the grace period. */
  minBytesPerSec: number;
}

interface Watched {
  req: IncomingMessage;
  res: ServerResponse;
  bytesAtStart: number;
  started: number;
  onSlow: () => void;
}

/**
 * Catches request bodies that arrive slower than a minimum average rate, as Apache's
 * mod_reqtimeout MinRate does: a client sending a byte now and then never trips the idle
 * timeout, yet would hold its connection and its upload open for ever. One timer checks every
 * body in flight; watching a request costs one set entry (no listener, no timer of its own).
 */
export class SlowBodyWatch {
  private readonly watched = new Set<Watched>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly rate: BodyRate) {
    this.timer = setInterval(() => this.check(), Math.max(50, Math.min(1000, rate.graceMs / 4))).unref();
  }

  /** `onSlow` runs once if the body falls behind; a finished body or response stops the watch. */
  watch(req: IncomingMessage, res: ServerResponse, onSlow: () => void): void {
    this.watched.add({ req, res, bytesAtStart: req.socket.bytesRead, started: performance.now(), onSlow });
  }

  private check(): void {
    const now = performance.now();
    for (const w of this.watched) {
      if (w.req.complete || w.req.destroyed || w.res.writableEnded) {
        this.watched.delete(w);
        continue;
      }
      const elapsed = now - w.started;
      if (elapsed <= this.rate.graceMs) continue;
      // Socket bytes include the head and anything read ahead: counted in the client's favour.
      const received = w.req.socket.bytesRead - w.bytesAtStart;
      if (received < (elapsed / 1000) * this.rate.minBytesPerSec) {
        this.watched.delete(w);
        w.onSlow();
      }
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.watched.clear();
  }
}

/** Whether a request announces a body (a length above zero, or chunked framing). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}
