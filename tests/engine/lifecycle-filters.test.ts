// The lifecycle rules' tag and size filters, as the engine evaluates them (pure functions of
// lifecycle.ts): a version is covered only with every tag of the rule and within its sizes.
import { describe, expect, it } from 'vitest';
import { currentExpiry, lifecycleProblem, noncurrentDue, type LifecycleRule } from '../../src-main/engine/lifecycle.js';

const DAY = 1000;
const rule = (more: Partial<LifecycleRule>): LifecycleRule => ({ id: 'r', enabled: true, prefix: '', filterForm: 'filter-and', expirationDays: 1, ...more });

describe('tag and size filters', () => {
  it('a current version expires only with all the rule\'s tags (key and value), others (and extra tags) aside', () => {
    const rules = [rule({ tags: [{ key: 'a', value: '1' }, { key: 'b', value: '2' }] })];
    const at = (tags?: { key: string; value: string }[]) => currentExpiry(rules, 'k', 0, DAY, { tags, size: 1 })?.at;
    expect(at([{ key: 'a', value: '1' }, { key: 'b', value: '2' }, { key: 'c', value: '3' }])).toBe(DAY);
    expect(at([{ key: 'a', value: '1' }])).toBeUndefined();
    expect(at([{ key: 'a', value: '1' }, { key: 'b', value: '3' }])).toBeUndefined();
    expect(at(undefined)).toBeUndefined();
  });

  it('sizes are strict bounds; a version without a size (a marker) is never covered by one', () => {
    const rules = [rule({ objectSizeGreaterThan: 10, objectSizeLessThan: 20 })];
    const covered = (size: number | undefined) => currentExpiry(rules, 'k', 0, DAY, { size }) !== undefined;
    expect([covered(10), covered(11), covered(19), covered(20), covered(undefined)]).toEqual([false, true, true, false, false]);
  });

  it('noncurrent versions are judged by their own tags; a rule without filters covers everything as before', () => {
    const tagged = [rule({ expirationDays: undefined, noncurrentDays: 1, tags: [{ key: 'x', value: 'y' }] })];
    expect(noncurrentDue(tagged, 'k', 0, 0, 5 * DAY, DAY, { tags: [{ key: 'x', value: 'y' }] })).toBe(true);
    expect(noncurrentDue(tagged, 'k', 0, 0, 5 * DAY, DAY, { tags: [] })).toBe(false);
    expect(currentExpiry([rule({})], 'k', 0, DAY)?.at).toBe(DAY);
  });

  it('refuses a tag key twice, and tags with uploads or expired delete markers (AWS InvalidRequest)', () => {
    expect(lifecycleProblem([rule({ tags: [{ key: 'k', value: '1' }, { key: 'k', value: '2' }] })])?.code).toBe('InvalidRequest');
    expect(lifecycleProblem([rule({ expirationDays: undefined, abortIncompleteDays: 1, tags: [{ key: 'k', value: '1' }] })])?.message).toBe('AbortIncompleteMultipartUpload cannot be specified with Tags.');
    expect(lifecycleProblem([rule({ expirationDays: undefined, expiredObjectDeleteMarker: true, tags: [{ key: 'k', value: '1' }] })])?.code).toBe('InvalidRequest');
    expect(lifecycleProblem([rule({ tags: [{ key: 'k', value: '1' }], objectSizeGreaterThan: 5 })])).toBeUndefined();
  });
});
