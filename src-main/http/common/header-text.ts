/**
 * Header values travel as bytes; Node hands them over as latin1 strings. Metadata is kept as
 * proper text: bytes that form valid UTF-8 are decoded; anything else is kept byte-for-byte
 * behind a private-use marker, so it goes back out exactly as it came in (§7.2).
 */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const RAW_BYTES = '\uE000';

export function headerToText(value: string): string {
  if (/^[\x00-\x7f]*$/.test(value)) return value;
  try {
    return strictUtf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return RAW_BYTES + value;
  }
}

/** The inverse of headerToText: text as the latin1 string of its UTF-8 bytes, for setHeader. */
export function textToHeader(text: string): string {
  if (text.startsWith(RAW_BYTES)) return text.slice(RAW_BYTES.length);
  return /^[\x00-\x7f]*$/.test(text) ? text : Buffer.from(text, 'utf8').toString('latin1');
}
