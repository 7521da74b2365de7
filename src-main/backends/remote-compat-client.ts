// The S3 client of a remote endpoint: retries for idempotent requests only, keep-alive
// connections, no checksum features a non-AWS server may lack, and a way to read the raw
// response headers the SDK drops (RGW's usage counters).
import type { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Agent as PlainAgent } from 'node:http';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';

export interface RemoteS3Config {
  /** e.g. https://s3.example.com or http://127.0.0.1:7480 */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** Path style (`/bucket/key`, RGW/MinIO default) or virtual host (`bucket.host/key`). */
  forcePathStyle: boolean;
  /** Tries of an idempotent request, the first included (default 4; 1 = no retries). */
  maxAttempts?: number;
  /** Connections to use (default: keep-alive agents); tests pass one with their own DNS lookup. */
  httpAgent?: HttpAgent;
  httpsAgent?: HttpsAgent;
  /** Give up connecting after this long (default 10 s). */
  connectTimeoutMs?: number;
  /** Multipart part size in bytes (default 8 MiB, grown to stay within 10000 parts). */
  partSize?: number;
  /** Parts in flight at once (default 4); memory use is about partSize x queueSize. */
  queueSize?: number;
}

/**
 * Requests whose repetition is not harmless: a second CreateMultipartUpload leaves an orphan
 * upload, a repeated Complete fails with NoSuchUpload after the first succeeded, and a repeated
 * CreateBucket/DeleteBucket reports an error for what actually worked. Everything else the
 * backend sends (GET/HEAD/PUT of whole objects and parts, copies, ACLs, deletes) ends in the
 * same state when repeated. Streaming bodies are never retried (the SDK cannot rewind them).
 */
export const NOT_RETRIED = new Set(['CreateMultipartUploadCommand', 'CompleteMultipartUploadCommand', 'CreateBucketCommand', 'DeleteBucketCommand']);

/** Errors of requests that must not be repeated, marked on their way out of the retry loop. */
const mustNotRetry = new WeakSet<object>();

const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
const RETRY_NAMES = new Set(['SlowDown', 'Throttling', 'ThrottlingException', 'RequestTimeout', 'TimeoutError', 'InternalError', 'ServiceUnavailable']);
/** Network failures worth another try (a refused or reset connection, a DNS hiccup); not ENOTFOUND. */
const RETRY_NET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ECONNABORTED']);

interface ErrorLike {
  name?: string;
  code?: string;
  errors?: ErrorLike[];
  $metadata?: { httpStatusCode?: number };
}

function isThrottling(e: ErrorLike): boolean {
  return e.name === 'SlowDown' || e.name === 'Throttling' || e.$metadata?.httpStatusCode === 429;
}

export function isRetryable(err: unknown): boolean {
  if (!err || typeof err !== 'object' || mustNotRetry.has(err)) return false;
  const e = err as ErrorLike;
  if (e.name === 'AbortError') return false;
  if (e.code && RETRY_NET_CODES.has(e.code)) return true;
  if ((e.errors ?? []).some((inner) => inner.code !== undefined && RETRY_NET_CODES.has(inner.code))) return true;
  const status = e.$metadata?.httpStatusCode;
  return (status !== undefined && RETRY_STATUSES.has(status)) || (e.name !== undefined && RETRY_NAMES.has(e.name));
}

/** The token the SDK's retry middleware carries between attempts; it sleeps for `delay` itself. */
class Attempt {
  constructor(
    private readonly retries: number,
    private readonly delay: number,
  ) {}
  getRetryCount(): number {
    return this.retries;
  }
  getRetryDelay(): number {
    return this.delay;
  }
}

/**
 * Exponential backoff with full jitter (100 ms base, 1 s when throttled, 20 s cap), honouring a
 * Retry-After hint, for retryable errors of requests not marked as unrepeatable. Structurally the
 * SDK's RetryStrategyV2.
 */
export class IdempotentRetryStrategy {
  constructor(
    private readonly maxAttempts: number,
    private readonly baseDelayMs = 100,
  ) {}

  async acquireInitialRetryToken(_scope: string): Promise<Attempt> {
    return new Attempt(0, 0);
  }

  async refreshRetryTokenForRetry(token: Attempt, info: { error?: unknown; retryAfterHint?: Date }): Promise<Attempt> {
    const retries = token.getRetryCount();
    if (retries + 1 >= this.maxAttempts || !isRetryable(info.error)) throw new Error('No retry');
    const base = isThrottling(info.error as ErrorLike) ? 1000 : this.baseDelayMs;
    let delay = Math.floor(Math.random() * Math.min(20_000, base * 2 ** retries));
    if (info.retryAfterHint) delay = Math.max(delay, Math.min(info.retryAfterHint.getTime() - Date.now(), 20_000));
    return new Attempt(retries + 1, delay);
  }

  recordSuccess(_token: Attempt): void {}
}

/** Connections per endpoint: enough for the transfer queue's small-file lane and a listing beside it. */
const MAX_SOCKETS = 32;

/** The keep-alive connection pools: the configured agents, or ours (shared by the SDK client and the direct requests). */
export function agentsFor(config: RemoteS3Config): { http: HttpAgent; https: HttpsAgent } {
  return {
    http: config.httpAgent ?? new PlainAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
    https: config.httpsAgent ?? new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
  };
}

export function createS3Client(config: RemoteS3Config): S3Client {
  const agents = agentsFor(config);
  const client = new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: {
      accessKeyId: config.accessKeyId,
      secretAccessKey: config.secretAccessKey,
      ...(config.sessionToken ? { sessionToken: config.sessionToken } : {}),
    },
    maxAttempts: config.maxAttempts ?? 4,
    retryStrategy: new IdempotentRetryStrategy(config.maxAttempts ?? 4),
    // Non-AWS servers may not know the flexible checksums (§31.2): only send them where required.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: {
      httpAgent: agents.http,
      httpsAgent: agents.https,
      connectionTimeout: config.connectTimeoutMs ?? 10_000,
    },
  });
  // Bodies that carry Content-MD5 (every PutObject and UploadPart we send) are signed as
  // UNSIGNED-PAYLOAD: the server checks the MD5, and over plain HTTP the signer would otherwise
  // read every byte once more for its SHA-256 (2 GiB up: the client's largest CPU cost after MD5).
  client.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { ContentMD5?: string };
      const request = args.request as { headers?: Record<string, string> };
      if (input.ContentMD5 && request.headers) request.headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
      return next(args);
    },
    { step: 'build', priority: 'low', name: 'cofferUnsignedPayloadWithMd5' },
  );
  // Inside the retry loop (the deserialize step runs within it): mark failures of unrepeatable requests.
  client.middlewareStack.add(
    (next, context) => async (args) => {
      try {
        return await next(args);
      } catch (err) {
        if (err && typeof err === 'object' && NOT_RETRIED.has(context.commandName ?? '')) mustNotRetry.add(err);
        throw err;
      }
    },
    { step: 'deserialize', priority: 'high', name: 'cofferMarkUnrepeatable' },
  );
  return client;
}

/** A HeadBucket that also hands its raw response headers (lower-case) to `sink`: RGW's counters are there. */
export function headBucketWithHeaders(bucket: string, sink: (headers: Record<string, string>) => void): HeadBucketCommand {
  const command = new HeadBucketCommand({ Bucket: bucket });
  command.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const headers = (result.response as { headers?: Record<string, string> }).headers ?? {};
      sink(Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])));
      return result;
    },
    { step: 'deserialize', priority: 'high', name: 'cofferCaptureHeaders' },
  );
  return command;
}
