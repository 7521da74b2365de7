// The native API's limits on user metadata, checked before saving so the user sees every problem
// at once rather than the server's first refusal.
import { strings } from '../../app/strings';

export const MAX_NAME_BYTES = 128;
export const MAX_VALUE_BYTES = 256;
export const MAX_ITEMS = 90;
export const MAX_TOTAL_BYTES = 4096;

/** An HTTP token (RFC 9110): what a header name may be made of. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export interface MetaRow {
  id: number;
  key: string;
  value: string;
}

const bytes = (s: string) => new TextEncoder().encode(s).length;

/** Every problem with the rows, in the user's words; empty when they can be saved. */
export function validateMeta(rows: readonly MetaRow[], contentType: string): string[] {
  const s = strings.metadataEditor.errors;
  const problems: string[] = [];
  if (!contentType.trim()) problems.push(s.contentTypeRequired);
  const seen = new Set<string>();
  let total = 0;
  rows.forEach((r, i) => {
    const n = i + 1;
    const key = r.key.trim();
    if (!key) problems.push(s.nameRequired(n));
    else if (!TOKEN.test(key)) problems.push(s.nameInvalid(n, key));
    if (bytes(key) > MAX_NAME_BYTES) problems.push(s.nameTooLong(n, MAX_NAME_BYTES));
    if (bytes(r.value) > MAX_VALUE_BYTES) problems.push(s.valueTooLong(n, MAX_VALUE_BYTES));
    const lower = key.toLowerCase();
    if (key && seen.has(lower)) problems.push(s.duplicate(n, key));
    seen.add(lower);
    total += bytes(key) + bytes(r.value);
  });
  if (rows.length > MAX_ITEMS) problems.push(s.tooMany(MAX_ITEMS));
  if (total > MAX_TOTAL_BYTES) problems.push(s.tooBig(MAX_TOTAL_BYTES));
  return problems;
}
