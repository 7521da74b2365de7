import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppContext } from '../../src-main/app-context.js';
import { createClient } from '../../src-shared/rpc/client.js';

describe('the shell service (native dialogs)', () => {
  it('answers NotSupported headless, and passes the desktop shell through when one is given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coffer-shell-'));
    const headless = await createAppContext({ dataDir: join(dir, 'a'), port: 0 });
    const picked: unknown[] = [];
    const desktop = await createAppContext({
      dataDir: join(dir, 'b'),
      port: 0,
      shell: {
        pickPaths: async (a) => (picked.push(a), { paths: ['/home/me/photo.jpg'] }),
        pickSavePath: async (a) => ({ path: `/home/me/${a.defaultName}` }),
        pickFolder: async () => ({ path: null }),
        startDrag: async (a) => void picked.push(a),
      },
    });
    try {
      const h = createClient(headless.rpc.asTransport()).services;
      await expect(h.shell.pickPaths({})).rejects.toMatchObject({ code: 'NotSupported' });
      await expect(h.shell.startDrag({ paths: ['/tmp/x'] })).rejects.toMatchObject({ code: 'NotSupported' });
      const d = createClient(desktop.rpc.asTransport()).services;
      expect(await d.shell.pickPaths({ folders: true })).toEqual({ paths: ['/home/me/photo.jpg'] });
      expect(picked).toEqual([{ folders: true, multiple: true }]);
      expect(await d.shell.pickSavePath({ defaultName: 'report.pdf' })).toEqual({ path: '/home/me/report.pdf' });
      await expect(d.shell.pickSavePath({} as never)).rejects.toMatchObject({ code: 'InvalidArgument' });
      await d.shell.startDrag({ paths: ['/staged/a.txt'] });
      expect(picked.at(-1)).toEqual({ paths: ['/staged/a.txt'] });
      await expect(d.shell.startDrag({ paths: [] })).rejects.toMatchObject({ code: 'InvalidArgument' });
    } finally {
      await headless.close();
      await desktop.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the plain method-name list', () => {
  it('names exactly the methods the manifest has schemas for', async () => {
    const { SERVICE_METHODS } = await import('../../src-shared/contract/manifest.js');
    const { METHODS_BY_SERVICE } = await import('../../src-shared/contract/method-names.js');
    const fromSchemas = Object.fromEntries(Object.entries(SERVICE_METHODS).map(([s, m]) => [s, Object.keys(m).sort()]));
    const listed = Object.fromEntries(Object.entries(METHODS_BY_SERVICE).map(([s, m]) => [s, [...m].sort()]));
    expect(listed).toEqual(fromSchemas);
  });
});
