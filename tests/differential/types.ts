// The differential suite's vocabulary: a corpus row is data (a request, the set-up it needs, how
// to compare the answers), a target is a server that can answer it, an observation is an answer
// reduced to what clients read, a difference is one field where Coffer and a reference disagree.

export type Api = 'native' | 's3';
/** The servers Coffer is compared with: the reference of each API and its second opinion. */
export type NativeRef = 'swift' | 'rgw-swift';
export type S3Ref = 'rgw' | 's3api';
export type RefName = NativeRef | S3Ref;
export type TargetName = 'coffer' | RefName;

/** Who sends the request. `owner` (the default) is the account whose containers/buckets the row uses. */
export type Who =
  | 'owner'
  /** A second valid user of another account (Swift: test2; RGW: its user `other`; Coffer: `diff$other`). */
  | 'other'
  | 'anonymous'
  /** Native: a token the server never issued. */
  | 'bad-token'
  /** S3: the owner's access key signed with a wrong secret. */
  | 'bad-signature'
  /** S3: an access key the server does not know. */
  | 'unknown-key';

/**
 * A request body. A string is sent as UTF-8 after placeholder substitution; `{ size, seed }` is
 * `size` deterministic bytes (the same on every target, so ETags and MD5s agree).
 */
export type Body = string | { size: number; seed?: string };

/**
 * One request. Placeholders in `path`, header values and string bodies:
 * - `{c}`, `{c2}` (native) / `{b}`, `{b2}` (S3): names of the row's own containers/buckets, fresh per row;
 *   `{c:256}` is `{c}` padded to 256 characters (name-length limits);
 * - `{f:NAME}`: the container/bucket of a shared fixture (read-only; see fixtures.ts);
 * - `{account}`, `{other-account}`: the native account names (`X-Copy-From-Account` and the like);
 * - `{owner-id}`, `{other-id}`: S3 canonical user ids (ACL grants, policies);
 * - `{user}`, `{key}`: the owner's v1 credentials; `{http-date+N}` / `{http-date-N}`: now ± N seconds as an HTTP date;
 * - `{epoch+N}`: now + N seconds as epoch seconds (X-Delete-At); any name captured by an earlier step,
 *   `{url:NAME}` percent-encoded for a query (`uploadId={url:upload}`);
 * - `{v1}`: the storage URL's path before the account (`/v1`, `/swift/v1`), `{token}` the owner's token.
 */
export interface Req {
  method: string;
  /**
   * Native: relative to the storage URL (`''` the account, `/{c}`, `/{c}/name`): the owner's, or
   * with `at: 'other'` the other user's; absolute from the server root with `at: 'root'` (`/info`);
   * appended to the v1 auth URL with `at: 'auth'`.
   * S3: from the root, path style (`/{b}/key?query`).
   * The path is sent as written (after substitution): percent-encode what must be encoded.
   */
  path: string;
  at?: 'storage' | 'other' | 'root' | 'auth';
  headers?: Record<string, string>;
  body?: Body;
  as?: Who;
  /** S3: add Content-MD5 of the body (Swift's s3api requires it on DeleteObjects). */
  md5?: boolean;
  /** S3: sign with UNSIGNED-PAYLOAD instead of the body's SHA-256. */
  unsignedPayload?: boolean;
  /** S3: sign as if the clock were this many seconds off (skew checks). */
  clockSkew?: number;
  /** S3: a presigned URL (SigV4 query) valid for this many seconds, instead of the Authorization header. */
  presign?: number;
  /** S3: SigV2 header authentication (`AWS key:signature`), as older tools sign. */
  sigv2?: boolean;
  /** SigV2: the Date header sent and signed instead of now (null: no Date at all). */
  sigv2Date?: string | null;
  /** SigV2: the resource signed instead of the path sent (e.g. `/{b}/` for a request sent to `/{b}`). */
  sigv2Resource?: string;
  /**
   * Native: a TempURL for the request's own path (`temp_url_sig`, `temp_url_expires`), signed with
   * HMAC-SHA1 (the digest every server here accepts) by `key` (the account's X-Account-Meta-Temp-URL-Key,
   * set in the row's set-up), expiring `expires` seconds from now (negative: already expired).
   */
  tempUrl?: { key: string; expires: number; method?: string };
  /**
   * Native: a form post's signature (Swift's formpost) over the request's own path, `redirect`,
   * the limits and an expiry `expires` seconds from now, by `key`; `[[form-sig]]` and
   * `[[form-expires]]` in the body stand for them (helpers' formBody writes them).
   */
  form?: { key: string; expires: number; redirect?: string; maxFileSize: number; maxFileCount: number; digest?: 'sha1' | 'sha256' | 'sha512' };
  /**
   * S3: a browser form upload's POST policy (POST Object), expiring `expires` seconds from now,
   * with the bucket's condition (and SigV4's x-amz-algorithm/-credential/-date) added to
   * `conditions`, signed by the row's key with SigV4, or SigV2 with `v2`. In the body
   * `[[policy]]`, `[[x-amz-credential]]`, `[[x-amz-date]]`, `[[x-amz-signature]]`,
   * `[[access-key]]` and `[[signature]]` stand for its fields (helpers' s3Form writes them).
   */
  postPolicy?: { expires: number; conditions: unknown[]; v2?: boolean };
  /**
   * Values to keep from the answer for later steps: `{ name: 'header:etag' | 'xml:UploadId' | 'json:0.name' }`.
   * The captured value replaces `{name}` afterwards.
   */
  capture?: Record<string, string>;
}

/** What of the answers is compared; every row compares status, error code and the headers clients read. */
export interface CompareOptions {
  /**
   * `exact` (default): the body's fields after normalisation; `shape`: the fields' names only
   * (listings of a shared account, whose entries other tests add); `none`.
   */
  body?: 'exact' | 'shape' | 'none';
  /** Headers compared for presence only (their values depend on timing, e.g. lagging account counters). */
  presence?: string[];
  /** Headers left out of this row's comparison (names ending in `-` are prefixes), with the reason in a comment. */
  ignore?: string[];
}

export interface Row {
  /** Unique, dotted: `api.area.case`; the deviations file names rows by id or by id prefix. */
  id: string;
  api: Api;
  /** What the row checks, in a few words (shown in failures). */
  title?: string;
  /** Set-up steps, run on every target before the compared request (their answers must be 2xx unless `mayFail`). */
  setup?: (Req & { mayFail?: boolean })[];
  request: Req;
  compare?: CompareOptions;
  /**
   * References this row is not sent to, each with the reason (a feature the server lacks, a
   * known crash). By default a row goes to both references of its API.
   */
  skip?: Partial<Record<RefName, string>>;
}

/** A response reduced to what is compared, every value already normalised to a string. */
export interface Observation {
  status: number;
  /** Fields by name: `code`, `header:<name>`, `body`, `body:<path>`. Absent fields are not in the map. */
  fields: Map<string, string>;
}

/** One field where Coffer and a reference disagree ('(absent)' where one has no such field). */
export interface Difference {
  row: string;
  ref: RefName;
  field: string;
  coffer: string;
  reference: string;
}

/**
 * An intended deviation: where Coffer differs from a reference on purpose, or until the issue
 * that takes it. It covers every difference that matches all of its conditions; one that covers
 * nothing in a run fails the suite (the file must stay true).
 */
export interface Deviation {
  /** Short id, unique in the file. */
  id: string;
  /** The reference(s) it is about. */
  ref: RefName | RefName[];
  /** Field names it covers, `*` standing for any text: `header:etag`, `body:*last_modified`, `*` (the whole answer). */
  fields: string[];
  /** Rows it covers, by id, `*` standing for any text (`native.slo.*`, every SLO row); every row when omitted. */
  rows?: string[];
  /** Regular expressions Coffer's and the reference's values must match (whole value), when given. */
  cofferValue?: string;
  referenceValue?: string;
  /** What Coffer does. */
  coffer: string;
  /** What the reference does. */
  reference: string;
  /** Why Coffer differs: the seed's choice, AWS's behaviour where RGW departs from it, or the issue that will take it. */
  reason: string;
  /** The issue that will remove it, when it is not intended for good. */
  issue?: number;
}
