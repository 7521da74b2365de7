/**
 * Percent-decodes a raw path (or query value) into bytes and then UTF-8, strictly: returns
 * undefined for invalid UTF-8 or malformed escapes, so the caller can answer with the
 * protocol's error instead of guessing.
 */
const strict = new TextDecoder('utf-8', { fatal: true });

export function decodeStrict(raw: string, plusIsSpace = false): string | undefined {
  if (!raw.includes('%') && !(plusIsSpace && raw.includes('+'))) {
    return raw;
  }
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === '%') {
      const hex = raw.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (ch === '+' && plusIsSpace) {
      bytes.push(0x20);
    } else {
      for (const b of Buffer.from(ch, 'utf8')) bytes.push(b);
    }
  }
  try {
    return strict.decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
}

/**
 * A header value as decodeStrict takes it: Node gives header values as latin1 strings (one
 * character per byte), so the bytes above 0x7f, raw UTF-8 from clients that do not
 * percent-encode (Swift reads them as the same path), are escaped first.
 */
export function decodeHeaderStrict(value: string): string | undefined {
  return decodeStrict(value.replace(/[\x80-\xff]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`));
}

/** Splits a raw query string into decoded pairs (first value wins); undefined if any part is malformed. */
export function parseQuery(raw: string): Map<string, string> | undefined {
  const out = new Map<string, string>();
  if (!raw) return out;
  for (const part of raw.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const k = decodeStrict(eq < 0 ? part : part.slice(0, eq), true);
    const v = decodeStrict(eq < 0 ? '' : part.slice(eq + 1), true);
    if (k === undefined || v === undefined) return undefined;
    if (!out.has(k)) out.set(k, v);
  }
  return out;
}

/** Percent-encodes every byte except unreserved characters and `/` (for header values like X-Copied-From). */
export function encodePath(s: string, keepSlash = true): string {
  return encodeURIComponent(s).replace(/%2F/g, keepSlash ? '/' : '%2F').replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
