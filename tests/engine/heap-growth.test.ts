// The bound on the heap's growth (engine/heap-growth.ts): on from the start, lifted while any
// body of BULK_BODY_BYTES or more is in flight, and back only after QUIET_BEFORE_BOUND_MS with
// none; bodies of unknown size count as bulk; ending a body twice counts once. Each test file
// runs in its own module state, so this file sees the module as the app does.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BULK_BODY_BYTES, bodyInFlight, heapGrowthBounded } from '../../src-main/engine/index.js';
import { QUIET_BEFORE_BOUND_MS } from '../../src-main/engine/heap-growth.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the heap growth bound', () => {
  it('is on once the engine is loaded, and small bodies leave it on', () => {
    expect(heapGrowthBounded()).toBe(true);
    const end = bodyInFlight(BULK_BODY_BYTES - 1);
    expect(heapGrowthBounded()).toBe(true);
    end();
    expect(heapGrowthBounded()).toBe(true);
  });

  it('is lifted while bulk bodies are in flight, and back once none has been for a quiet while', () => {
    vi.useFakeTimers();
    const first = bodyInFlight(BULK_BODY_BYTES);
    const unknown = bodyInFlight(undefined);
    expect(heapGrowthBounded()).toBe(false);
    first();
    first();
    // One ended twice still leaves the other in flight.
    vi.advanceTimersByTime(QUIET_BEFORE_BOUND_MS * 2);
    expect(heapGrowthBounded()).toBe(false);
    unknown();
    vi.advanceTimersByTime(QUIET_BEFORE_BOUND_MS - 1);
    expect(heapGrowthBounded()).toBe(false);
    // A body starting in the quiet while keeps it lifted past it.
    const next = bodyInFlight(null);
    vi.advanceTimersByTime(QUIET_BEFORE_BOUND_MS * 2);
    expect(heapGrowthBounded()).toBe(false);
    next();
    vi.advanceTimersByTime(QUIET_BEFORE_BOUND_MS);
    expect(heapGrowthBounded()).toBe(true);
  });
});
