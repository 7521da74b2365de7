/**
 * Header values travel as bytes; Node hands them over as latin1 strings. Metadata is kept as
 * proper text: bytes that form valid UTF-8 are decoded, anything else is kept byte-for-byte.
 */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function headerToText(value: string): string {
  if (/^[\x00-\x7f]*$/.test(value)) return value;
  try {
    return strictUtf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}

/** The inverse of headerToText: text as the latin1 string of its UTF-8 bytes, for setHeader. */
export function textToHeader(text: string): string {
  return /^[\x00-\x7f]*$/.test(text) ? text : Buffer.from(text, 'utf8').toString('latin1');
}
