/** Request headers as Node gives them: lower-case names, repeated ones as arrays. */
export type RequestHeaders = Record<string, string | string[] | undefined>;

/** One header's value, repeated ones joined with commas. */
export function headerOf(headers: RequestHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}
