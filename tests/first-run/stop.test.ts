// `coffer serve --ui` stops promptly on Ctrl-C and on SIGTERM while a browser tab is open (its
// event stream and keep-alive connections), lets a request under way finish, and keeps what it
// acknowledged. The real command on a built checkout, as a child process.
import { request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout, openLink, run, type Checkout, type Command } from './newcomer.js';

let tree: Checkout;
const started: Command[] = [];
beforeAll(async () => {
  tree = checkout();
  const build = run(tree.dir, tree.env, 'npm', ['run', 'build']);
  started.push(build);
  if (!(await build.exitsWithin(150_000)) || (await build.exited).code !== 0) throw new Error(`npm run build failed:\n${build.output()}`);
}, 180_000);
afterAll(() => {
  for (const command of started) command.kill();
  tree.remove();
});

async function serve(data: string): Promise<{ server: Command; base: string; cookie: string }> {
  const server = run(tree.dir, tree.env, process.execPath, ['src-main/bin/coffer.mjs', 'serve', '--ui', '--data', data, '--port', '0']);
  started.push(server);
  const [, link] = await server.waitFor(/Browser UI[^\n]*: (http:\/\/\S+)/, 60_000);
  await server.waitFor(/listening on/, 10_000);
  const { cookie } = await openLink(link!);
  return { server, base: new URL(link!).origin, cookie };
}

/** A tab's event stream: resolves once it is open; `ended` once the server ends it. */
function eventStream(base: string, cookie: string): Promise<{ ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/_coffer/events`, { headers: { Cookie: cookie } }, (res) => {
      const ended = new Promise<void>((done) => res.once('end', done).once('close', done));
      res.once('data', () => resolve({ ended }));
    });
    req.on('error', reject);
    req.end();
  });
}

function call(url: string, options: { method?: string; headers?: Record<string, string> } = {}, body?: string): Promise<IncomingMessage & { text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, options, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve(Object.assign(res, { text })));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The first user's native credentials, from the JSON `coffer serve` prints when it creates it. */
function swiftCredentials(output: string): { user: string; key: string } {
  const created = /Created the first user:\n(\{[\s\S]*?\n\})\n/.exec(output);
  const { swift_keys } = JSON.parse(created![1]!) as { swift_keys: { user: string; secret_key: string }[] };
  return { user: swift_keys[0]!.user, key: swift_keys[0]!.secret_key };
}

describe('coffer serve --ui with a browser tab open', () => {
  it('stops within seconds of Ctrl-C, ending the tab’s event stream', async () => {
    const { server, base, cookie } = await serve(join(tree.config, 'sigint'));
    const stream = await eventStream(base, cookie);
    expect((await call(`${base}/_coffer/`, { headers: { Cookie: cookie } })).statusCode).toBe(200);

    server.signal('SIGINT');
    expect(await server.exitsWithin(10_000)).toBe(true);
    expect((await server.exited).code).toBe(0);
    await stream.ended;
  }, 90_000);

  it('on SIGTERM, finishes the upload under way, closes its connection, exits, and keeps the object', async () => {
    const data = join(tree.config, 'sigterm');
    const { server, base, cookie } = await serve(data);
    const creds = swiftCredentials(server.output());
    const auth = await call(`${base}/auth/1.0`, { headers: { 'X-Auth-User': creds.user, 'X-Auth-Key': creds.key } });
    const token = auth.headers['x-auth-token'] as string;
    const storage = auth.headers['x-storage-url'] as string;
    expect((await call(`${storage}/kept`, { method: 'PUT', headers: { 'X-Auth-Token': token } })).statusCode).toBe(201);
    const stream = await eventStream(base, cookie);

    // An upload whose body is still arriving when the signal comes.
    const body = ['first half of the body, ', 'second half, sent after SIGTERM'];
    const answered = new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${storage}/kept/late.txt`, { method: 'PUT', headers: { 'X-Auth-Token': token, 'Transfer-Encoding': 'chunked' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res));
      });
      req.on('error', reject);
      req.write(body[0]);
      setTimeout(() => {
        server.signal('SIGTERM');
        setTimeout(() => req.end(body[1]), 500);
      }, 300);
    });
    const res = await answered;
    expect(res.statusCode).toBe(201);
    expect(res.headers.connection).toBe('close');
    expect(await server.exitsWithin(10_000)).toBe(true);
    expect((await server.exited).code).toBe(0);
    await stream.ended;

    const again = await serve(data);
    const relogin = await call(`${again.base}/auth/1.0`, { headers: { 'X-Auth-User': creds.user, 'X-Auth-Key': creds.key } });
    const read = await call(`${relogin.headers['x-storage-url'] as string}/kept/late.txt`, { headers: { 'X-Auth-Token': relogin.headers['x-auth-token'] as string } });
    expect(read.text).toBe(body.join(''));
    again.server.signal('SIGTERM');
    expect(await again.server.exitsWithin(10_000)).toBe(true);
  }, 120_000);
});
