/**
 * Prepares Coffer's data directory before `coffer serve` starts: the bench account with an S3 key
 * and a Swift key, and for the 1M-object page the containers `million` (90% of its names under
 * big/, the rest under 100 other prefixes) and `thousand` (1,000 names under big/). The big
 * container is filled through the engine directly with noSync (a bulk import: the fill is not
 * what is measured), then the engine is closed, which puts everything on disk.
 */
import { performance } from 'node:perf_hooks';
import { Engine } from '../../../src-main/engine/index.js';

export const COFFER_USER = {
  account: 'bench$bencher',
  accessKey: 'BENCHACCESSKEY000001',
  secretKey: 'bench-secret-key-0123456789abcdefghijkl',
  swiftUser: 'bench$bencher:swift',
  swiftKey: 'bench-swift-key',
};

/** The page both containers are asked for: delimiter /, from prefix big/, 1,000 entries. */
export const bigPrefixPage = { prefix: 'big/', delimiter: '/' };

const BATCH = 4000;
const EMPTY = Buffer.alloc(0);

export async function fillCofferStore(dir: string, bigN: number, log: (m: string) => void) {
  const engine = await Engine.open(dir, { noSync: true, expirySweepMs: 0 });
  await engine.createAccount({
    id: COFFER_USER.account,
    displayName: 'Bench',
    keys: [{ accessKey: COFFER_USER.accessKey, secretKey: COFFER_USER.secretKey }],
    swiftKeys: [{ sub: 'swift', secretKey: COFFER_USER.swiftKey }],
  });
  if (bigN === 0) {
    await engine.close();
    return { objects: 0 };
  }
  const under = Math.round(bigN * 0.9);
  const rest = bigN - under;
  const perDir = Math.ceil(rest / 100);
  const nameAt = (i: number) =>
    i < under ? `big/${String(i).padStart(9, '0')}` : `d${String(Math.floor((i - under) / perDir)).padStart(2, '0')}/x${String((i - under) % perDir).padStart(7, '0')}`;
  const fill = async (container: string, n: number, name: (i: number) => string) => {
    await engine.createContainer(COFFER_USER.account, container);
    const ref = Engine.ref(COFFER_USER.account, container);
    for (let s = 0; s < n; s += BATCH) {
      const ps: Promise<unknown>[] = [];
      for (let i = s; i < Math.min(n, s + BATCH); i++) ps.push(engine.putObject(ref, name(i), EMPTY, { size: 0 }));
      await Promise.all(ps);
      if (Math.floor((s + BATCH) / 100_000) !== Math.floor(s / 100_000)) log(`coffer fill: ${container} ${Math.min(n, s + BATCH)}/${n}`);
    }
  };
  const t0 = performance.now();
  await fill('thousand', 1000, (i) => `big/${String(i).padStart(9, '0')}`);
  await fill('million', bigN, nameAt);
  await engine.close();
  const seconds = (performance.now() - t0) / 1000;
  return {
    objects: bigN,
    layout: `million: ${under} names big/NNNNNNNNN, then ${rest} under 100 prefixes dNN/; thousand: 1,000 names big/NNNNNNNNN`,
    fillSeconds: Number(seconds.toFixed(1)),
    fillObjectsPerSec: Math.round((bigN + 1000) / seconds),
    options: 'engine noSync, batches of 4000 putObject calls, closed before the server starts',
  };
}
