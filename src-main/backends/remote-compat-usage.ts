// Account usage and quota of an S3 endpoint, where it tells: RGW's `GET /?usage` (§29), else
// the X-RGW-* headers of HeadBucket summed over the buckets. Anything else is unknown (null).
import type { S3Client } from '@aws-sdk/client-s3';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { XMLParser } from 'fast-xml-parser';

export interface RgwUsage {
  objects: number | null;
  bytes: number | null;
  maxBytes: number | null;
  maxObjects: number | null;
}

const xml = new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, parseTagValue: false });

/** The first value of `key` anywhere below `node` (RGW nests the totals differently by version). */
function find(node: unknown, key: string): unknown {
  if (!node || typeof node !== 'object') return undefined;
  const rec = node as Record<string, unknown>;
  if (key in rec) return rec[key];
  for (const child of Object.values(rec)) {
    const found = find(child, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A count or byte figure; a negative limit means unlimited, which the model says as null. */
function figure(v: unknown): number | null {
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** Reads RGW's `<Usage>` document; null when the body is something else (e.g. a bucket list). */
export function parseRgwUsage(body: string): RgwUsage | null {
  let doc: Record<string, unknown>;
  try {
    doc = xml.parse(body) as Record<string, unknown>;
  } catch {
    return null;
  }
  const usage = doc.Usage;
  const summary = find(usage, 'Summary');
  if (!summary) return null;
  return {
    objects: figure(find(summary, 'TotalEntries')),
    bytes: figure(find(summary, 'TotalBytes')),
    maxBytes: figure(find(summary, 'QuotaMaxBytes')),
    maxObjects: figure(find(summary, 'QuotaMaxObjCount')),
  };
}

/**
 * Asks the endpoint for `GET /?usage`. The SDK has no command for it, so the request is signed
 * (as a presigned URL, which any S3 server accepts) and sent through the client's own handler:
 * the same connections, agent and timeouts. Returns null when the answer is not a usage document.
 */
export async function fetchRgwUsage(client: S3Client, endpoint: string): Promise<RgwUsage | null> {
  const url = new URL(endpoint);
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  const port = url.port ? Number(url.port) : undefined;
  const presigner = new S3RequestPresigner({ ...client.config });
  const signed = await presigner.presign(
    {
      method: 'GET',
      protocol: url.protocol,
      hostname: url.hostname,
      ...(port !== undefined ? { port } : {}),
      path,
      query: { usage: '' },
      headers: { host: url.host },
    },
    { expiresIn: 300 },
  );
  const { response } = await client.config.requestHandler.handle(signed as never, { abortSignal: AbortSignal.timeout(15_000) });
  const chunks: Buffer[] = [];
  for await (const chunk of response.body as AsyncIterable<Buffer>) chunks.push(chunk);
  if (response.statusCode !== 200) return null;
  return parseRgwUsage(Buffer.concat(chunks).toString('utf8'));
}

/** Usage summed from HeadBucket headers; null where any bucket did not say. */
export function sumBucketCounters(buckets: { objects: number | null; bytes: number | null }[]): { objects: number | null; bytes: number | null } {
  const sum = (pick: (b: { objects: number | null; bytes: number | null }) => number | null) =>
    buckets.reduce<number | null>((acc, b) => (acc === null || pick(b) === null ? null : acc + pick(b)!), 0);
  return { objects: sum((b) => b.objects), bytes: sum((b) => b.bytes) };
}
