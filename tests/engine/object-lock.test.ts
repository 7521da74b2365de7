// Object lock in the engine, whatever the API: the container rules (versioning on for good), the
// retention changes allowed, and every way a version is removed refusing a locked one (a delete
// by id, the native bulk delete, an expired X-Delete-At) while a delete marker still goes on top.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src-main/engine/engine.js';
import { requireRetentionChange, type ObjectRetention } from '../../src-main/engine/object-lock.js';
import { codeOf, openStore, type TestStore } from './helpers.js';

let s: TestStore;
const ref = () => Engine.ref(s.account, 'locked');
const DAY = 86_400_000;
const ahead = (days: number): number => Date.now() + days * DAY;

beforeEach(async () => {
  s = await openStore();
  await s.engine.createContainer(s.account, 'locked', { objectLock: {} });
});
afterEach(() => s.close());

describe('the container', () => {
  it('has versioning on, which can be neither suspended nor turned off; the lock cannot be enabled on an unversioned one', async () => {
    expect(s.engine.getContainer(ref()).versioning).toBe('enabled');
    expect(await codeOf(() => s.engine.updateContainer(ref(), { versioning: 'suspended' }))).toBe('InvalidBucketState');
    await s.engine.createContainer(s.account, 'plain');
    const plain = Engine.ref(s.account, 'plain');
    expect(await codeOf(() => s.engine.updateContainer(plain, { objectLock: {} }))).toBe('InvalidBucketState');
    expect(await codeOf(() => s.engine.updateContainer(ref(), { objectLock: { defaultRetention: { mode: 'GOVERNANCE', days: 0 } } }))).toBe('InvalidArgument');
    expect(await codeOf(() => s.engine.putObject(plain, 'k', 'x', { lock: { legalHold: true } }))).toBe('InvalidBucketState');
  });
});

describe('removing a locked version', () => {
  it('is refused by id, by the bulk delete and by its expiry; a delete without id writes a marker', async () => {
    const v = await s.engine.putObject(ref(), 'k', 'kept', { lock: { retention: { mode: 'COMPLIANCE', until: ahead(1) } }, deleteAt: Math.floor(Date.now() / 1000) + 1 });
    expect(await codeOf(() => s.engine.deleteObject(ref(), 'k', { versionId: v.versionId, bypassGovernance: true }))).toBe('AccessDenied');
    // Its X-Delete-At passes: the expirer removes it by id, which the lock refuses.
    expect(await s.engine.expireDue(Date.now() + 5000)).toBe(0);
    expect((await s.engine.deleteMany(s.account.split('$')[0]!, [{ container: 'locked', name: 'k' }])).deleted).toBe(1);
    const kept = s.engine.listVersions(ref()).entries.flatMap((e) => (e.kind === 'version' ? [e.version] : []));
    expect(kept.filter((x) => !x.deleteMarker).map((x) => x.versionId)).toEqual([v.versionId]);
    expect(kept.some((x) => x.deleteMarker)).toBe(true);
  });

  it('governance gives way to the bypass; a legal hold to nothing but its lifting', async () => {
    const g = await s.engine.putObject(ref(), 'g', 'x', { lock: { retention: { mode: 'GOVERNANCE', until: ahead(1) } } });
    expect(await codeOf(() => s.engine.deleteObject(ref(), 'g', { versionId: g.versionId }))).toBe('AccessDenied');
    await s.engine.deleteObject(ref(), 'g', { versionId: g.versionId, bypassGovernance: true });
    const h = await s.engine.putObject(ref(), 'h', 'x', { lock: { legalHold: true } });
    expect(await codeOf(() => s.engine.deleteObject(ref(), 'h', { versionId: h.versionId, bypassGovernance: true }))).toBe('AccessDenied');
    await s.engine.setObjectLegalHold(ref(), 'h', h.versionId!, false);
    await s.engine.deleteObject(ref(), 'h', { versionId: h.versionId });
  });

  it('a default retention is given to every new version written through the engine (the native API included)', async () => {
    await s.engine.updateContainer(ref(), { objectLock: { defaultRetention: { mode: 'GOVERNANCE', days: 2 } } });
    const before = Date.now();
    const v = await s.engine.putObject(ref(), 'd', 'x');
    expect(v.retention?.mode).toBe('GOVERNANCE');
    expect(v.retention!.until).toBeGreaterThanOrEqual(before + 2 * DAY);
    expect(s.engine.getObjectLock(ref(), 'd').retention).toEqual(v.retention);
  });
});

describe('changing a retention', () => {
  const gov: ObjectRetention = { mode: 'GOVERNANCE', until: ahead(2) };
  const comp: ObjectRetention = { mode: 'COMPLIANCE', until: ahead(2) };
  const later = (r: ObjectRetention, mode = r.mode): ObjectRetention => ({ mode, until: r.until + DAY });
  const sooner = (r: ObjectRetention, mode = r.mode): ObjectRetention => ({ mode, until: r.until - DAY });
  it.each<[string, ObjectRetention | undefined, ObjectRetention | null, boolean, boolean]>([
    ['none set', undefined, gov, false, true],
    ['run out', { mode: 'COMPLIANCE', until: Date.now() - 1000 }, null, false, true],
    ['governance extended', gov, later(gov), false, true],
    ['governance shortened', gov, sooner(gov), false, false],
    ['governance shortened with the bypass', gov, sooner(gov), true, true],
    ['governance removed', gov, null, false, false],
    ['governance removed with the bypass', gov, null, true, true],
    ['governance to compliance', gov, later(gov, 'COMPLIANCE'), false, false],
    ['governance to compliance with the bypass', gov, later(gov, 'COMPLIANCE'), true, true],
    ['compliance extended', comp, later(comp), false, true],
    ['compliance shortened with the bypass', comp, sooner(comp), true, false],
    ['compliance removed with the bypass', comp, null, true, false],
    ['compliance to governance with the bypass', comp, later(comp, 'GOVERNANCE'), true, false],
  ])('%s', (_, current, next, bypass, allowed) => {
    const change = () => requireRetentionChange(current, next, Date.now(), bypass);
    if (allowed) expect(change).not.toThrow();
    else expect(change).toThrow(expect.objectContaining({ code: 'AccessDenied' }));
  });
});
