/**
 * Cross-origin rules of a container (S3 PutBucketCors; the native API's container CORS maps onto
 * the same shape): whether a rule set is acceptable, and which rule, if any, lets a browser at an
 * origin send a method with some headers. Pure: the front ends render the answers.
 */

export interface CorsRule {
  id?: string;
  /** Origins, each with at most one `*` wildcard (`*` alone: any origin). */
  origins: string[];
  /** Upper-case methods. */
  methods: string[];
  /** Request headers a preflight may ask for, each with at most one `*` (case-insensitive). */
  headers: string[];
  /** Response headers scripts may read. */
  exposeHeaders: string[];
  maxAgeSeconds?: number;
}

export const CORS_METHODS = ['GET', 'PUT', 'HEAD', 'POST', 'DELETE'];
export const MAX_CORS_RULES = 100;

export interface CorsProblem {
  code: 'InvalidRequest' | 'MalformedXML';
  message: string;
}

/** What AWS says about a rule set it refuses (undefined: acceptable). */
export function corsProblem(rules: CorsRule[]): CorsProblem | undefined {
  if (rules.length === 0) return { code: 'MalformedXML', message: 'The XML you provided was not well-formed or did not validate against our published schema.' };
  if (rules.length > MAX_CORS_RULES) return { code: 'InvalidRequest', message: `The number of CORS rules should not exceed allowed limit of ${MAX_CORS_RULES} rules.` };
  for (const r of rules) {
    if (r.origins.length === 0 || r.methods.length === 0) return { code: 'MalformedXML', message: 'The XML you provided was not well-formed or did not validate against our published schema.' };
    const method = r.methods.find((m) => !CORS_METHODS.includes(m));
    if (method !== undefined) return { code: 'InvalidRequest', message: `Found unsupported HTTP method in CORS config. Unsupported method is ${method}` };
    const origin = r.origins.find((o) => wildcards(o) > 1);
    if (origin !== undefined) return { code: 'InvalidRequest', message: `AllowedOrigin "${origin}" can not have more than one wildcard.` };
    const header = r.headers.find((h) => wildcards(h) > 1);
    if (header !== undefined) return { code: 'InvalidRequest', message: `AllowedHeader "${header}" can not have more than one wildcard.` };
  }
  return undefined;
}

const wildcards = (s: string) => s.split('*').length - 1;

/** `pattern` (at most one `*`, standing for any text) against `value`. */
export function wildcardMatch(pattern: string, value: string): boolean {
  const star = pattern.indexOf('*');
  if (star < 0) return pattern === value;
  const head = pattern.slice(0, star);
  const tail = pattern.slice(star + 1);
  return value.length >= head.length + tail.length && value.startsWith(head) && value.endsWith(tail);
}

/**
 * The first rule letting `origin` send `method` with `requestHeaders` (a preflight's
 * Access-Control-Request-Headers; none for an actual request), as AWS evaluates them in order.
 */
export function matchCors(rules: readonly CorsRule[] | undefined, origin: string, method: string, requestHeaders: readonly string[] = []): CorsRule | undefined {
  return rules?.find(
    (r) =>
      r.origins.some((o) => wildcardMatch(o, origin)) &&
      r.methods.includes(method) &&
      requestHeaders.every((h) => r.headers.some((p) => wildcardMatch(p.toLowerCase(), h.toLowerCase()))),
  );
}
