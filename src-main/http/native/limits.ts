export const LISTING_LIMIT = 10_000;

/** Swift's boolean query/header spellings. */
export function truthy(v: string | undefined): boolean {
  return v !== undefined && ['true', '1', 'yes', 'on', 't', 'y'].includes(v.toLowerCase());
}
