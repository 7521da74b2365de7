/** Engine bench, section small: 10,000 x 4 KiB put then get at concurrency 16, inline bodies and blob files. */
import { randomBytes } from 'node:crypto';
import { Engine, type EngineOptions } from '../../../src-main/engine/index.js';
import { ACCOUNT, drain, openEngine, pool, type SectionContext } from './common.js';

export async function benchSmall({ dirFor, log, ratios }: SectionContext) {
  const N = 10_000;
  const SIZE = 4096;
  const CONC = 16;
  const template = randomBytes(SIZE);
  const bodyOf = (i: number) => {
    const b = Buffer.from(template);
    b.writeUInt32BE(i, 0);
    return b;
  };
  const nameOf = (i: number) => `obj/${String(i).padStart(6, '0')}`;

  const run = async (label: string, options: Partial<EngineOptions>) => {
    const engine = await openEngine(dirFor(`small-${label}`), options);
    await engine.createContainer(ACCOUNT, 'small');
    const ref = Engine.ref(ACCOUNT, 'small');
    log(`small/${label}: ${N} puts of ${SIZE} B at concurrency ${CONC}`);
    const put = await pool(N, CONC, (i) => engine.putObject(ref, nameOf(i), bodyOf(i), { size: SIZE }));
    log(`small/${label}: put ${put.opsPerSec} ops/s; gets`);
    let bytesRead = 0;
    const get = await pool(N, CONC, async (i) => {
      const { body } = await engine.getObject(ref, nameOf(i));
      const n = await drain(body);
      bytesRead += n;
    });
    log(`small/${label}: get ${get.opsPerSec} ops/s`);
    await engine.close();
    return { options, put, get, bytesRead };
  };

  const inline = await run('inline', {});
  const file = await run('file', { inlineMax: 0 });
  ratios.add('small.put inline/file ops/s', inline.put.opsPerSec, file.put.opsPerSec, '> 1 (inline storage should pay)');
  ratios.add('small.get inline/file ops/s', inline.get.opsPerSec, file.get.opsPerSec, '>= 1');
  return {
    objects: N,
    objectBytes: SIZE,
    concurrency: CONC,
    inline: { note: 'default options (inlineMax 64 KiB): 4 KiB bodies live in the index', ...inline },
    file: { note: 'inlineMax 0: every object a blob file (fsync file + dir + 2 index commits)', ...file },
  };
}
