// The first 256 KiB of an object as text: asked for as one byte range, its encoding found (a
// byte-order mark, the type's charset, valid UTF-8, else chardet's guess) and decoded here.
import { detect } from 'chardet';
import { TEXT_PREVIEW_BYTES } from './preview-kind';

export type TextSample =
  | { binary: false; text: string; encoding: string; shownBytes: number; truncated: boolean }
  | { binary: true };

/** Reads at most `limit` bytes of the reply, so a server that ignored the range costs no more. */
async function readAtMost(res: Response, limit: number): Promise<Uint8Array> {
  const out = new Uint8Array(limit);
  let length = 0;
  const reader = res.body?.getReader();
  if (!reader) return out.subarray(0, 0);
  try {
    while (length < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      const take = Math.min(value.length, limit - length);
      out.set(value.subarray(0, take), length);
      length += take;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return out.subarray(0, length);
}

function decoderFor(label: string | null | undefined): TextDecoder | null {
  if (!label) return null;
  try {
    return new TextDecoder(label);
  } catch {
    return null;
  }
}

function bomEncoding(b: Uint8Array): string | null {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  return null;
}

function isUtf8(b: Uint8Array, cut: boolean): boolean {
  try {
    // A sample cut mid-character is still UTF-8: `stream` leaves the last partial sequence pending.
    new TextDecoder('utf-8', { fatal: true }).decode(b, { stream: cut });
    return true;
  } catch {
    return false;
  }
}

/** How the encoding is shown: UTF names as people write them, others as the WHATWG names them. */
function encodingLabel(decoder: TextDecoder): string {
  return decoder.encoding.replace(/^utf-/, 'UTF-');
}

export function decodeSample(bytes: Uint8Array, contentType: string, truncated: boolean): TextSample {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  const bom = bomEncoding(bytes);
  const utf16 = bom?.startsWith('utf-16') ?? false;
  // NUL bytes do not occur in text but in UTF-16: anything else holding them is binary.
  if (!utf16 && !/^utf-16/i.test(charset ?? '') && bytes.includes(0)) return { binary: true };
  const decoder =
    decoderFor(bom) ?? decoderFor(charset) ?? (isUtf8(bytes, truncated) ? new TextDecoder('utf-8') : null) ?? decoderFor(detect(bytes)) ?? new TextDecoder('windows-1252');
  return { binary: false, text: decoder.decode(bytes), encoding: encodingLabel(decoder), shownBytes: bytes.length, truncated };
}

export async function readTextSample(url: string, size: number, contentType: string, signal: AbortSignal): Promise<TextSample> {
  const res = await fetch(url, { headers: { Range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` }, credentials: 'same-origin', signal });
  if (res.status !== 200 && res.status !== 206) {
    const body = (await res.json().catch(() => ({}))) as { error?: string };
    throw new Error(body.error ?? `${res.status} ${res.statusText}`);
  }
  const bytes = await readAtMost(res, TEXT_PREVIEW_BYTES);
  return decodeSample(bytes, contentType, bytes.length < size);
}
