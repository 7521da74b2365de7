import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Stopping a server promptly. node's `server.close()` only stops accepting and closes the
 * connections idle at that moment: one that was busy goes on serving whatever its client sends
 * next (a browser's keep-alive connections, for minutes), and an event stream never ends at all.
 * Once stopping, every answer closes its connection, answers already under way close theirs when
 * they finish, and whatever is still open after the grace period is cut (an upload cut there
 * leaves nothing: nothing is committed before its body is whole).
 */
export class Drain {
  private readonly open = new Map<ServerResponse, IncomingMessage>();
  private readonly handlers = new Set<Promise<void>>();
  private stopping = false;

  /** Each request as it arrives, before its handler runs. */
  track(req: IncomingMessage, res: ServerResponse): void {
    this.open.set(res, req);
    res.once('close', () => this.open.delete(res));
    if (this.stopping) closeWhenAnswered(req, res);
  }

  /** A request's handler, which may outlive its connection (a commit under way when it was cut). */
  hold(handler: Promise<void>): void {
    this.handlers.add(handler);
    void handler.finally(() => this.handlers.delete(handler));
  }

  /**
   * Resolves once every connection is closed (at the latest `graceMs` after it is called) and
   * the handlers of the cut ones have settled, or `settleMs` more have passed.
   */
  async close(server: Server, endStreams: () => void, { graceMs, settleMs }: { graceMs: number; settleMs: number }): Promise<void> {
    this.stopping = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    endStreams();
    for (const [res, req] of this.open) closeWhenAnswered(req, res);
    server.closeIdleConnections();
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    await closed;
    clearTimeout(cut);
    let giveUp: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.handlers]), new Promise((resolve) => (giveUp = setTimeout(resolve, settleMs)))]);
    clearTimeout(giveUp);
  }
}

function closeWhenAnswered(req: IncomingMessage, res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
  // An answer already started said keep-alive (or may yet drop the header, as 100-continue does).
  const socket = req.socket;
  res.once('close', () => socket.end());
}
