// The buffers stored bytes are read into (engine/blobs/read-buffers.ts): given back, a buffer is
// lent again; a slice gives back the whole; a buffer is never lent to two holders at once, however
// often it is given back; a buffer the engine did not lend is never taken in.
import { describe, expect, it } from 'vitest';
import { READ_CHUNK_BYTES, returnReadBuffer, takeReadBuffer } from '../../src-main/engine/blobs/read-buffers.js';

describe('read buffers', () => {
  it('lends a buffer given back again, also when a slice of it is given back', () => {
    const a = takeReadBuffer();
    expect(a.length).toBe(READ_CHUNK_BYTES);
    returnReadBuffer(a.subarray(0, 10));
    const again = takeReadBuffer();
    expect(again.buffer).toBe(a.buffer);
    returnReadBuffer(again);
  });

  it('never lends one buffer to two holders, however often it is given back', () => {
    const a = takeReadBuffer();
    returnReadBuffer(a);
    returnReadBuffer(a);
    const first = takeReadBuffer();
    const second = takeReadBuffer();
    expect(first.buffer).toBe(a.buffer);
    expect(second.buffer).not.toBe(first.buffer);
    returnReadBuffer(first);
    returnReadBuffer(second);
  });

  it('takes in no buffer it did not lend', () => {
    const foreign = Buffer.alloc(READ_CHUNK_BYTES);
    returnReadBuffer(foreign);
    const taken = [takeReadBuffer(), takeReadBuffer(), takeReadBuffer()];
    for (const t of taken) expect(t.buffer).not.toBe(foreign.buffer);
    for (const t of taken) returnReadBuffer(t);
  });
});
