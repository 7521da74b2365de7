import { isIP, BlockList } from 'node:net';

/**
 * The Condition block of a bucket policy statement, as IAM evaluates it: every operator must
 * hold, and within one operator every key; a key with several values holds when any matches
 * (for the negated operators: when none does). A key the request does not carry fails the
 * operator, except the negated ones (they hold), `...IfExists` (holds) and `Null`.
 */

/** The values a request carries for the condition keys (lower-case names), absent when it has none. */
export type ConditionContext = Record<string, string | undefined>;

type Test = (actual: string, wanted: string) => boolean;

/** `*` and `?` wildcards, as StringLike reads them. */
function like(actual: string, pattern: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 's');
  return re.test(actual);
}

const num = (s: string) => (/^-?\d+(\.\d+)?$/.test(s.trim()) ? Number(s) : NaN);
const numeric = (cmp: (a: number, b: number) => boolean): Test => (a, b) => cmp(num(a), num(b));
/** A date as IAM writes it: ISO 8601, or seconds since the epoch. */
const when = (s: string) => (/^\d+$/.test(s.trim()) ? Number(s) * 1000 : Date.parse(s));
const dated = (cmp: (a: number, b: number) => boolean): Test => (a, b) => cmp(when(a), when(b));

function inRange(ip: string, cidr: string): boolean {
  const [net, bits] = cidr.split('/');
  const family = isIP(net ?? '');
  const kind = isIP(ip);
  if (!family || !kind) return false;
  const list = new BlockList();
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (bits === undefined) list.addAddress(net!, type);
  else list.addSubnet(net!, Number(bits), type);
  // An IPv4 client seen as ::ffff:a.b.c.d by a dual-stack socket.
  const plain = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  return list.check(plain, isIP(plain) === 4 ? 'ipv4' : 'ipv6');
}

/** The operators, by name without IfExists; `negated` ones hold when no value matches. */
const OPERATORS: Record<string, { test: Test; negated?: boolean }> = {
  StringEquals: { test: (a, b) => a === b },
  StringNotEquals: { test: (a, b) => a === b, negated: true },
  StringEqualsIgnoreCase: { test: (a, b) => a.toLowerCase() === b.toLowerCase() },
  StringNotEqualsIgnoreCase: { test: (a, b) => a.toLowerCase() === b.toLowerCase(), negated: true },
  StringLike: { test: like },
  StringNotLike: { test: like, negated: true },
  NumericEquals: { test: numeric((a, b) => a === b) },
  NumericNotEquals: { test: numeric((a, b) => a === b), negated: true },
  NumericLessThan: { test: numeric((a, b) => a < b) },
  NumericLessThanEquals: { test: numeric((a, b) => a <= b) },
  NumericGreaterThan: { test: numeric((a, b) => a > b) },
  NumericGreaterThanEquals: { test: numeric((a, b) => a >= b) },
  DateEquals: { test: dated((a, b) => a === b) },
  DateNotEquals: { test: dated((a, b) => a === b), negated: true },
  DateLessThan: { test: dated((a, b) => a < b) },
  DateLessThanEquals: { test: dated((a, b) => a <= b) },
  DateGreaterThan: { test: dated((a, b) => a > b) },
  DateGreaterThanEquals: { test: dated((a, b) => a >= b) },
  Bool: { test: (a, b) => a.toLowerCase() === b.toLowerCase() },
  BinaryEquals: { test: (a, b) => a === b },
  ArnEquals: { test: like },
  ArnLike: { test: like },
  ArnNotEquals: { test: like, negated: true },
  ArnNotLike: { test: like, negated: true },
  IpAddress: { test: inRange },
  NotIpAddress: { test: inRange, negated: true },
};

/**
 * Condition keys: the S3 front end fills in aws:Referer, aws:SourceIp, aws:SecureTransport,
 * aws:UserAgent, aws:CurrentTime, aws:EpochTime, s3:prefix, s3:delimiter, s3:max-keys,
 * s3:VersionId and s3:x-amz-acl (policy-facts.ts). Other global
 * (`aws:`) and S3 (`s3:`) keys are taken, as AWS takes them, and read as absent: a policy written
 * for AWS (aws:SourceVpce, aws:PrincipalOrgID, …) stores, and its conditions on them do not hold.
 */
const KNOWN_KEY = /^(aws|s3):[A-Za-z0-9_.\-/]+$/i;

function operatorOf(name: string): { test: Test; negated?: boolean; ifExists: boolean; isNull: boolean } | undefined {
  const base = name.replace(/^(ForAnyValue|ForAllValues):/, '');
  if (base === 'Null') return { test: () => true, ifExists: false, isNull: true };
  const ifExists = base.endsWith('IfExists');
  const op = OPERATORS[ifExists ? base.slice(0, -'IfExists'.length) : base];
  return op && { ...op, ifExists, isNull: false };
}

const values = (v: unknown): string[] => ([] as unknown[]).concat(v).map((x) => String(x));

/** Why a Condition block cannot be stored, or undefined when it can. */
export function conditionProblem(block: unknown): string | undefined {
  if (block === undefined) return undefined;
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return 'Invalid Condition';
  for (const [name, keys] of Object.entries(block)) {
    if (!operatorOf(name)) return `Invalid Condition type : ${name}`;
    if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) return 'Invalid Condition';
    for (const key of Object.keys(keys)) if (!KNOWN_KEY.test(key)) return 'Policy has an invalid condition key';
  }
  return undefined;
}

/** Whether every operator of the block holds for the request. */
export function conditionsHold(block: Record<string, Record<string, unknown>> | undefined, ctx: ConditionContext): boolean {
  if (!block) return true;
  for (const [name, keys] of Object.entries(block)) {
    const op = operatorOf(name)!;
    for (const [key, wanted] of Object.entries(keys)) {
      const actual = ctx[key.toLowerCase()];
      if (op.isNull) {
        // Null: true means the key must be absent, false that it must be there.
        if (values(wanted).some((w) => (w.toLowerCase() === 'true') !== (actual === undefined))) return false;
        continue;
      }
      if (actual === undefined) {
        if (op.ifExists || op.negated) continue;
        return false;
      }
      const matched = values(wanted).some((w) => op.test(actual, w));
      if (matched === !!op.negated) return false;
    }
  }
  return true;
}
