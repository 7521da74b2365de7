import { conditionProblem, conditionsHold, type ConditionContext } from './policy-conditions.js';

export type { ConditionContext } from './policy-conditions.js';

/**
 * Bucket policies as AWS evaluates them for one bucket: a statement applies when its principal,
 * action and resource match the request and its conditions hold; an applying Deny wins over any
 * Allow; with neither, the policy says nothing (the ACLs decide). Principals name Coffer accounts
 * in AWS's forms: `arn:aws:iam::TENANT:user/NAME` (RGW's; the account `TENANT$NAME`),
 * `arn:aws:iam::TENANT:root` (every account of the tenant), a bare account id, or
 * `{"CanonicalUser": id}` (the id ListBuckets shows as Owner).
 */

/** The S3 actions a policy may name (AWS's list for buckets and objects); a policy naming another is malformed. */
const ACTIONS = [
  'AbortMultipartUpload', 'DeleteBucket', 'DeleteBucketPolicy', 'DeleteBucketWebsite', 'DeleteObject', 'DeleteObjectTagging',
  'DeleteObjectVersion', 'DeleteObjectVersionTagging', 'GetAccelerateConfiguration', 'GetAnalyticsConfiguration', 'GetBucketAcl',
  'GetBucketCORS', 'GetBucketLocation', 'GetBucketLogging', 'GetBucketNotification', 'GetBucketObjectLockConfiguration',
  'GetBucketOwnershipControls', 'GetBucketPolicy', 'GetBucketPolicyStatus', 'GetBucketPublicAccessBlock', 'GetBucketRequestPayment',
  'GetBucketTagging', 'GetBucketVersioning', 'GetBucketWebsite', 'GetEncryptionConfiguration', 'GetLifecycleConfiguration',
  'GetObject', 'GetObjectAcl', 'GetObjectAttributes', 'GetObjectLegalHold', 'GetObjectRetention', 'GetObjectTagging', 'GetObjectTorrent',
  'GetObjectVersion', 'GetObjectVersionAcl', 'GetObjectVersionAttributes', 'GetObjectVersionTagging', 'GetObjectVersionTorrent',
  'GetReplicationConfiguration', 'ListBucket', 'ListBucketMultipartUploads', 'ListBucketVersions', 'ListMultipartUploadParts',
  'PutAccelerateConfiguration', 'PutBucketAcl', 'PutBucketCORS', 'PutBucketLogging', 'PutBucketNotification', 'PutBucketObjectLockConfiguration',
  'PutBucketOwnershipControls', 'PutBucketPolicy', 'PutBucketPublicAccessBlock', 'PutBucketRequestPayment', 'PutBucketTagging',
  'PutBucketVersioning', 'PutBucketWebsite', 'PutEncryptionConfiguration', 'PutLifecycleConfiguration', 'PutObject', 'PutObjectAcl',
  'PutObjectLegalHold', 'PutObjectRetention', 'PutObjectTagging', 'PutObjectVersionAcl', 'PutObjectVersionTagging',
  'PutReplicationConfiguration', 'RestoreObject', 'BypassGovernanceRetention', 'ReplicateObject', 'ReplicateDelete', 'ReplicateTags',
].map((a) => `s3:${a}`.toLowerCase());

/** One access request as a policy sees it. */
export interface PolicyRequest {
  /** `s3:GetObject`, … */
  action: string;
  bucket: string;
  /** The object a request is for; undefined: the bucket itself. */
  key?: string | undefined;
  /** The caller's account id; undefined: anonymous. */
  account: string | undefined;
  context: ConditionContext;
}

export type PolicyVerdict = 'allow' | 'deny' | undefined;

interface Statement {
  effect: 'Allow' | 'Deny';
  principal: unknown;
  notPrincipal: unknown;
  actions: string[] | undefined;
  notActions: string[] | undefined;
  resources: string[] | undefined;
  notResources: string[] | undefined;
  condition: Record<string, Record<string, unknown>> | undefined;
}

const list = (v: unknown): string[] | undefined => (v === undefined ? undefined : ([] as unknown[]).concat(v).map(String));

function wildcard(pattern: string, value: string, ignoreCase = false): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, ignoreCase ? 'si' : 's');
  return re.test(value);
}

/** Whether a principal element names the caller (`*` names everyone, anonymous included). */
function principalMatches(p: unknown, account: string | undefined): boolean {
  if (p === '*') return true;
  if (typeof p !== 'object' || p === null) return false;
  const named = [...(list((p as { AWS?: unknown }).AWS) ?? []), ...(list((p as { CanonicalUser?: unknown }).CanonicalUser) ?? [])];
  return named.some((n) => {
    if (n === '*') return true;
    if (account === undefined) return false;
    const arn = /^arn:aws:iam::([^:]*):(user\/(.+)|root)$/.exec(n);
    const dollar = account.indexOf('$');
    const tenant = dollar < 0 ? '' : account.slice(0, dollar);
    if (!arn) return n === account;
    if (arn[2] === 'root') return arn[1] === tenant;
    const user = arn[3]!;
    // RGW writes `user/NAME` under the tenant; a full account id after user/ is taken as it is.
    return user.includes('$') ? user === account : (arn[1] ? `${arn[1]}$${user}` : user) === account;
  });
}

function principalProblem(p: unknown): boolean {
  if (p === '*') return false;
  if (typeof p !== 'object' || p === null || Array.isArray(p)) return true;
  const keys = Object.keys(p);
  // Service and federated principals are AWS's own callers: taken, and never any account here.
  return keys.length === 0 || keys.some((k) => !['AWS', 'CanonicalUser', 'Service', 'Federated'].includes(k)) || keys.some((k) => (list((p as Record<string, unknown>)[k]) ?? []).some((v) => !v));
}

function statementOf(raw: unknown): Statement | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'Invalid statement';
  const s = raw as Record<string, unknown>;
  if (s.Effect !== 'Allow' && s.Effect !== 'Deny') return `Invalid effect: ${String(s.Effect)}`;
  if ((s.Principal === undefined) === (s.NotPrincipal === undefined)) return 'Invalid principal in policy';
  if (principalProblem(s.Principal ?? s.NotPrincipal)) return 'Invalid principal in policy';
  if ((s.Action === undefined) === (s.NotAction === undefined)) return 'Missing required field Action';
  if ((s.Resource === undefined) === (s.NotResource === undefined)) return 'Missing required field Resource';
  const condition = conditionProblem(s.Condition);
  if (condition) return condition;
  return {
    effect: s.Effect,
    principal: s.Principal,
    notPrincipal: s.NotPrincipal,
    actions: list(s.Action),
    notActions: list(s.NotAction),
    resources: list(s.Resource),
    notResources: list(s.NotResource),
    condition: s.Condition as Statement['condition'],
  };
}

/** A stored document's statements, or why it cannot be stored (AWS's MalformedPolicy messages). */
export function parsePolicy(text: string, bucket: string): Statement[] | string {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return 'Policies must be valid JSON and the first byte must be \'{\'';
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return 'Policies must be valid JSON and the first byte must be \'{\'';
  const raw = (doc as { Statement?: unknown }).Statement;
  if (raw === undefined || (Array.isArray(raw) && raw.length === 0)) return 'Missing required field Statement';
  const version = (doc as { Version?: unknown }).Version;
  if (version !== undefined && version !== '2012-10-17' && version !== '2008-10-17') return 'Invalid policy version';
  const out: Statement[] = [];
  for (const r of ([] as unknown[]).concat(raw)) {
    const s = statementOf(r);
    if (typeof s === 'string') return s;
    for (const a of s.actions ?? s.notActions ?? []) {
      if (a !== '*' && !ACTIONS.some((known) => wildcard(a, known, true))) return 'Policy has invalid action';
    }
    for (const res of s.resources ?? s.notResources ?? []) {
      const m = /^arn:aws:s3:::([^/]*)(\/.*)?$/.exec(res);
      if (res !== '*' && (!m || !wildcard(m[1]!, bucket))) return 'Policy has invalid resource';
    }
    out.push(s);
  }
  return out;
}

/** Parsed documents by text: a policy is evaluated on every request its bucket gets. */
const cache = new Map<string, Statement[] | string>();

function statementsOf(text: string, bucket: string): Statement[] {
  const key = `${bucket}\n${text}`;
  let parsed = cache.get(key);
  if (parsed === undefined) {
    if (cache.size > 256) cache.clear();
    cache.set(key, (parsed = parsePolicy(text, bucket)));
  }
  // A document stored before its checks existed grants nothing it cannot be read as.
  return typeof parsed === 'string' ? [] : parsed;
}

function applies(s: Statement, r: PolicyRequest): boolean {
  const who = s.principal !== undefined ? principalMatches(s.principal, r.account) : !principalMatches(s.notPrincipal, r.account);
  if (!who) return false;
  const action = (patterns: string[]) => patterns.some((a) => a === '*' || wildcard(a, r.action, true));
  if (!(s.actions ? action(s.actions) : !action(s.notActions!))) return false;
  const arn = `arn:aws:s3:::${r.bucket}${r.key === undefined ? '' : `/${r.key}`}`;
  const resource = (patterns: string[]) => patterns.some((p) => p === '*' || wildcard(p, arn));
  if (!(s.resources ? resource(s.resources) : !resource(s.notResources!))) return false;
  return conditionsHold(s.condition, r.context);
}

/** What the bucket's policy says of the request: an applying Deny, else an applying Allow, else nothing. */
export function evaluatePolicy(policy: string | null, r: PolicyRequest): PolicyVerdict {
  if (!policy) return undefined;
  let verdict: PolicyVerdict;
  for (const s of statementsOf(policy, r.bucket)) {
    if (!applies(s, r)) continue;
    if (s.effect === 'Deny') return 'deny';
    verdict = 'allow';
  }
  return verdict;
}

/**
 * Whether the policy makes the bucket public (GetBucketPolicyStatus): an Allow to everyone whose
 * conditions do not narrow who may ask (AWS counts fixed source addresses and accounts as narrowing).
 */
export function policyIsPublic(policy: string | null, bucket: string): boolean {
  if (!policy) return false;
  return statementsOf(policy, bucket).some((s) => s.effect === 'Allow' && s.principal !== undefined && principalMatches(s.principal, undefined) && !s.condition);
}
