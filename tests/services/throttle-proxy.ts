// A TCP proxy in front of a test server that lets client-to-server bytes through at a fixed
// rate (over all its connections together, with no credit for idle time), so a large upload is still running when a test means to cancel or pause it, however fast
// this machine's loopback is.
import { connect, createServer, type Socket } from 'node:net';

export interface ThrottleProxy {
  port: number;
  url: string;
  /** Bytes sent from the server to clients so far. */
  bytesDown(): number;
  /** Cuts every connection open now, as a network that drops them; new ones are served. */
  dropConnections(): void;
  /** Alters one byte of the next server-to-client chunk that is all body (not an answer's first): bytes damaged on the way. Needs `downloads`. */
  damageOnce(): void;
  close(): Promise<void>;
}

/** One budget for every connection: an upload in parallel parts shares the rate. */
interface Budget {
  /** When the bytes let through so far are due, at the rate (never earlier than now). */
  due: number;
  bytesPerSec: number;
}

function throttle(from: Socket, to: Socket, budget: Budget, alter?: (chunk: Buffer) => void): void {
  from.on('data', (chunk: Buffer) => {
    alter?.(chunk);
    const now = performance.now();
    budget.due = Math.max(budget.due, now) + (chunk.length / budget.bytesPerSec) * 1000;
    to.write(chunk);
    const ahead = budget.due - now;
    if (ahead > 1) {
      from.pause();
      setTimeout(() => from.resume(), ahead);
    }
  });
  from.on('end', () => to.end());
}

/** `downloads`: server-to-client bytes go at the rate too (their own budget), for downloads to pause mid-way. */
export async function throttleProxy(targetPort: number, bytesPerSec: number, opts: { downloads?: boolean } = {}): Promise<ThrottleProxy> {
  const sockets = new Set<Socket>();
  const budget: Budget = { due: 0, bytesPerSec };
  const downBudget: Budget = { due: 0, bytesPerSec };
  let down = 0;
  let damage = false;
  const alter = (chunk: Buffer) => {
    if (!damage || chunk.subarray(0, 5).toString('latin1') === 'HTTP/') return;
    damage = false;
    chunk[chunk.length - 1]! ^= 0xff;
  };
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      // One side gone ends the other: a client that hung up must not keep the server sending
      // into the proxy (those bytes would count as sent to a client that never got them).
      s.on('close', () => (sockets.delete(s), client.destroy(), upstream.destroy()));
      s.on('error', () => (client.destroy(), upstream.destroy()));
    }
    throttle(client, upstream, budget);
    upstream.on('data', (chunk: Buffer) => (down += chunk.length));
    if (opts.downloads) throttle(upstream, client, downBudget, alter);
    else upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    bytesDown: () => down,
    damageOnce: () => {
      damage = true;
    },
    dropConnections: () => {
      for (const s of sockets) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
