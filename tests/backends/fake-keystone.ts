// A minimal Keystone v3 token endpoint for the remote Swift backend's tests: POST /v3/auth/tokens
// checks the request body against one expected identity and answers as Keystone does (201,
// X-Subject-Token, a catalog). The token it hands out is a real v1 token from Coffer, so the
// catalog's object-store URL works with it. No real Keystone: Debian's `keystone` needs a
// database, a WSGI server and bootstrap steps that do not fit a unit test's time.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CatalogEndpoint {
  interface: 'public' | 'internal' | 'admin';
  region_id: string;
  region?: string;
  url: string;
}

export interface FakeKeystoneOptions {
  /** Signs in to the real store; returns the token and storage URL to hand out. */
  issue: () => Promise<{ token: string; storageUrl: string }>;
  /** Whether this `auth` body is accepted (else 401 as Keystone answers). */
  accept: (body: unknown) => boolean;
  /** The object-store endpoints for a storage URL; default one public endpoint in RegionOne. */
  endpoints?: (storageUrl: string) => CatalogEndpoint[];
  /** Tokens to hand out instead of real ones, first (to make the storage reject them). */
  badTokens?: string[];
}

export interface FakeKeystone {
  /** `http://127.0.0.1:<port>` (no `/v3`: the client adds it). */
  url: string;
  /** Every token request body, in order. */
  bodies: unknown[];
  close(): Promise<void>;
}

export async function startFakeKeystone(opts: FakeKeystoneOptions): Promise<FakeKeystone> {
  const bodies: unknown[] = [];
  const bad = [...(opts.badTokens ?? [])];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.method !== 'POST' || req.url !== '/v3/auth/tokens') {
          res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { code: 404, title: 'Not Found', message: 'Could not find the resource.' } }));
          return;
        }
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          body = undefined;
        }
        bodies.push(body);
        if (!opts.accept(body)) {
          res.writeHead(401, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ error: { code: 401, title: 'Unauthorized', message: 'The request you have made requires authentication.' } }));
          return;
        }
        const real = await opts.issue();
        const token = bad.shift() ?? real.token;
        const endpoints = opts.endpoints?.(real.storageUrl) ?? [{ interface: 'public', region_id: 'RegionOne', url: real.storageUrl }];
        const payload = {
          token: {
            methods: ['password'],
            expires_at: new Date(Date.now() + 3600_000).toISOString().replace('Z', '000Z'),
            issued_at: new Date().toISOString(),
            user: { id: 'u1', name: 'tester', domain: { id: 'default', name: 'Default' } },
            project: { id: 'p1', name: 'demo', domain: { id: 'default', name: 'Default' } },
            roles: [{ id: 'r1', name: 'member' }],
            catalog: [
              { type: 'identity', name: 'keystone', id: 'k', endpoints: [{ id: 'e0', interface: 'public', region_id: 'RegionOne', region: 'RegionOne', url: `http://127.0.0.1/v3` }] },
              { type: 'object-store', name: 'swift', id: 's', endpoints: endpoints.map((e, i) => ({ id: `e${i + 1}`, region: e.region_id, ...e })) },
            ],
          },
        };
        res.writeHead(201, { 'Content-Type': 'application/json', 'X-Subject-Token': token });
        res.end(JSON.stringify(payload));
      })().catch((err: Error) => res.writeHead(500).end(err.message));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
