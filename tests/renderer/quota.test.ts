// The quota arithmetic the UI shows and the pre-upload warning relies on.
import { describe, expect, it } from 'vitest';
import { quotaExceededBy, quotaLevel } from '../../src-renderer/features/quota/quota.js';

describe('quotaExceededBy', () => {
  const usage = { bytes: 900, objects: 9 };

  it('is null while the upload fits, up to exactly the limit', () => {
    expect(quotaExceededBy(usage, { maxBytes: 1000, maxObjects: 10 }, { bytes: 100, objects: 1 })).toBeNull();
    expect(quotaExceededBy(usage, { maxBytes: 1000, maxObjects: 10 }, { bytes: 0, objects: 0 })).toBeNull();
  });

  it('says by how much each limit would be passed', () => {
    expect(quotaExceededBy(usage, { maxBytes: 1000, maxObjects: 10 }, { bytes: 150, objects: 1 })).toEqual({ bytes: 50, objects: 0 });
    expect(quotaExceededBy(usage, { maxBytes: 1000, maxObjects: 10 }, { bytes: 10, objects: 3 })).toEqual({ bytes: 0, objects: 2 });
    expect(quotaExceededBy(usage, { maxBytes: 1000, maxObjects: 10 }, { bytes: 200, objects: 2 })).toEqual({ bytes: 100, objects: 1 });
  });

  it('already over the limit: any upload exceeds, by the whole overshoot', () => {
    expect(quotaExceededBy({ bytes: 1200, objects: 0 }, { maxBytes: 1000, maxObjects: null }, { bytes: 1, objects: 1 })).toEqual({ bytes: 201, objects: 0 });
  });

  it('no limit, a negative (unlimited) limit, or unknown usage never warns', () => {
    expect(quotaExceededBy(usage, { maxBytes: null, maxObjects: null }, { bytes: 1e12, objects: 1e6 })).toBeNull();
    expect(quotaExceededBy(usage, { maxBytes: -1, maxObjects: -1 }, { bytes: 1e12, objects: 1e6 })).toBeNull();
    expect(quotaExceededBy({ bytes: null, objects: null }, { maxBytes: 1, maxObjects: 1 }, { bytes: 1e12, objects: 1e6 })).toBeNull();
    expect(quotaExceededBy({ bytes: null, objects: 9 }, { maxBytes: 1, maxObjects: 10 }, { bytes: 1e12, objects: 2 })).toEqual({ bytes: 0, objects: 1 });
  });

  it('a zero limit lets nothing in', () => {
    expect(quotaExceededBy({ bytes: 0, objects: 0 }, { maxBytes: 0, maxObjects: 0 }, { bytes: 1, objects: 1 })).toEqual({ bytes: 1, objects: 1 });
  });
});

describe('quotaLevel', () => {
  it('reads unknown, none, and a limited level with warnings near and over the limit', () => {
    expect(quotaLevel(null, 10)).toEqual({ kind: 'unknown' });
    expect(quotaLevel(5, null)).toEqual({ kind: 'none', used: 5 });
    expect(quotaLevel(5, 10)).toMatchObject({ kind: 'limited', percent: 50, warn: false, over: false });
    expect(quotaLevel(9, 10)).toMatchObject({ warn: true, over: false });
    expect(quotaLevel(11, 10)).toMatchObject({ warn: true, over: true, percent: 110 });
  });

  it('measures against what the store counts, where it counts more than the bytes stored', () => {
    // 20 one-byte objects: 20 B stored, 80 KiB counted against a 40 KiB quota.
    expect(quotaLevel(20, 40960, 20 * 4096)).toMatchObject({ kind: 'limited', used: 20, counted: 81920, percent: 200, warn: true, over: true });
    expect(quotaLevel(20, 40960)).toMatchObject({ counted: 20, percent: 0, over: false });
    expect(quotaLevel(20, null, 81920)).toEqual({ kind: 'none', used: 20 });
  });
});
