// The README's first commands, typed as a newcomer types them on a fresh checkout where no
// Electron window can open (no display here, and usually no Electron binary either): the browser
// UI is refused until it is built, `npm start` builds it and serves the app in the browser, and
// Ctrl-C stops it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkout, groupAlive, openLink, run, type Checkout, type Command } from './newcomer.js';

let tree: Checkout;
const started: Command[] = [];
beforeAll(() => {
  tree = checkout();
});
// A case that failed half-way leaves nothing running for the next one (its server would hold the store).
afterEach(async () => {
  for (const command of started.splice(0)) {
    if (!groupAlive(command)) continue;
    command.kill();
    await Promise.race([command.exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  }
});
afterAll(() => tree.remove());

function command(name: string, args: string[]): Command {
  const c = run(tree.dir, tree.env, name, args);
  started.push(c);
  return c;
}

const LINK = /Browser UI[^\n]*: (http:\/\/127\.0\.0\.1:\d+\/_coffer\/\?token=[\w-]+)/;

describe('on a fresh checkout', () => {
  it('`coffer serve --ui` refuses to hand out a link to a browser app that is not built, and says how to build it', async () => {
    const data = join(tree.config, 'cli-store');
    const serve = command(process.execPath, ['src-main/bin/coffer.mjs', 'serve', '--ui', '--data', data, '--port', '0']);
    expect(await serve.exitsWithin(60_000)).toBe(true);
    expect((await serve.exited).code).toBe(1);
    expect(serve.output()).toContain('npm run build');
    expect(serve.output()).not.toMatch(/https?:\/\//);
    // Nothing was left holding the store: it can be served at once.
    expect(existsSync(join(data, 'coffer.pid'))).toBe(false);
  }, 90_000);

  it('`npm start` builds the app, serves it to the browser from the desktop store, and stops on Ctrl-C', async () => {
    const start = command('npm', ['start', '--', '--port', '0']);
    await start.waitFor(/Opening Coffer in your browser instead of its own window: [^\n]+\./, 150_000);
    const [, link] = await start.waitFor(LINK, 60_000);
    expect(start.output()).not.toContain('failed to install correctly');
    // Said just after the link, in a write of its own.
    await start.waitFor(/Not opening a browser \(no display to open a browser on/, 10_000);
    expect(start.output()).toContain(`Data: ${join(tree.config, 'coffer', 'store')}`);

    const { page } = await openLink(link!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('<title>Coffer</title>');
    expect(html).not.toContain('Not found');

    start.signal('SIGINT');
    expect(await start.exitsWithin(15_000)).toBe(true);
    await expect.poll(() => groupAlive(start), { timeout: 5_000 }).toBe(false);
    await expect(fetch(link!)).rejects.toThrow();
  }, 240_000);

  it('`npm start` also stops when only npm is told to (SIGTERM to its pid, as a process manager does)', async () => {
    const start = command('npm', ['start', '--', '--port', '0']);
    const [, link] = await start.waitFor(LINK, 210_000);
    await start.waitFor(/listening on/, 10_000);
    // npm and its shell end at once and pass nothing on: what they started must stop by itself.
    process.kill(start.child.pid!, 'SIGTERM');
    await expect.poll(() => groupAlive(start), { timeout: 15_000, interval: 250 }).toBe(false);
    await expect(fetch(link!)).rejects.toThrow();
  }, 240_000);
});
