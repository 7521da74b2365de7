// The buffers stored bytes are read into (engine/blobs/buffers.ts): given back, a buffer is
// lent again; a slice gives back the whole; a buffer is never lent to two holders at once, however
// often it is given back; a buffer the engine did not lend is never taken in.
import { describe, expect, it } from 'vitest';
import { BLOB_BUFFER_BYTES, returnBlobBuffer, takeBlobBuffer } from '../../src-main/engine/blobs/buffers.js';

describe('read buffers', () => {
  it('lends a buffer given back again, also when a slice of it is given back', () => {
    const a = takeBlobBuffer();
    expect(a.length).toBe(BLOB_BUFFER_BYTES);
    returnBlobBuffer(a.subarray(0, 10));
    const again = takeBlobBuffer();
    expect(again.buffer).toBe(a.buffer);
    returnBlobBuffer(again);
  });

  it('never lends one buffer to two holders, however often it is given back', () => {
    const a = takeBlobBuffer();
    returnBlobBuffer(a);
    returnBlobBuffer(a);
    const first = takeBlobBuffer();
    const second = takeBlobBuffer();
    expect(first.buffer).toBe(a.buffer);
    expect(second.buffer).not.toBe(first.buffer);
    returnBlobBuffer(first);
    returnBlobBuffer(second);
  });

  it('takes in no buffer it did not lend', () => {
    const foreign = Buffer.alloc(BLOB_BUFFER_BYTES);
    returnBlobBuffer(foreign);
    const taken = [takeBlobBuffer(), takeBlobBuffer(), takeBlobBuffer()];
    for (const t of taken) expect(t.buffer).not.toBe(foreign.buffer);
    for (const t of taken) returnBlobBuffer(t);
  });
});
