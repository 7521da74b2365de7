// A server far away, as seen from the app: an HTTP proxy in front of a test server that holds
// every request for a while before passing it on unchanged (Host header included, so signatures
// still verify), so whatever the app shows while a request is under way stays on screen long
// enough to be seen.
import { createServer, request } from 'node:http';

export interface SlowProxy {
  url: string;
  close(): Promise<void>;
}

export async function startSlowProxy(target: { host: string; port: number }, delayMs: number): Promise<SlowProxy> {
  const server = createServer((req, res) => {
    req.pause();
    setTimeout(() => {
      const upstream = request({ host: target.host, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
      req.resume();
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
