// Objects of every kind a preview shows, made here (no binary files in the repository) and put
// through the local store's S3 API with the admin's keys, as any client would.
import { deflateSync } from 'node:zlib';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Page } from '@playwright/test';
import type { LocalStoreStatus, LocalUser } from '../../../src-shared/contract/local-store.js';
import { rpc } from './fixtures.js';

export interface Fixture {
  name: string;
  type: string;
  body: Buffer;
}

function crc32(bytes: Buffer): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A PNG of one colour, `width` × `height`. */
export function png(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

/** A one-page PDF saying `text`. */
export function pdf(text: string): Buffer {
  const content = `BT /F1 24 Tf 40 100 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** 16-bit mono PCM: a tone of `seconds` (8 kHz keeps it small per second, long enough to seek in). */
export function wav(seconds: number): Buffer {
  const rate = 8000;
  const samples = rate * seconds;
  const out = Buffer.alloc(44 + samples * 2);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(36 + samples * 2, 4);
  out.write('WAVEfmt ', 8, 'latin1');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'latin1');
  out.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) out.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), 44 + i * 2);
  return out;
}

/** windows-1252 bytes of `text` (its characters are all in that code page). */
export function cp1252(text: string): Buffer {
  const high: Record<string, number> = { '€': 0x80, '–': 0x96, '—': 0x97, œ: 0x9c, '’': 0x92, '“': 0x93, '”': 0x94 };
  return Buffer.from([...text].map((ch) => high[ch] ?? ch.charCodeAt(0)));
}

export const SVG_SCRIPT_MARK = 'svg-script-ran';
export const LATIN1_TEXT = 'Crème brûlée, façade, naïve – l’œuvre coûte 25 € à Québec.\nDéjà vu: “élève” — garçon, Noël, sœur.\n';
export const JSON_TEXT = '{"name":"coffer","tags":["preview","json"],"nested":{"depth":2,"ok":true}}';
export const BIG_TEXT_BYTES = 600_000;
export const AUDIO_SECONDS = 600;

export const FIXTURES: Fixture[] = [
  { name: 'photo.png', type: 'image/png', body: png(64, 40, [38, 96, 198]) },
  {
    name: 'evil.svg',
    type: 'image/svg+xml',
    body: Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="80" height="60"><title>evil</title><rect width="80" height="60" fill="#c33"/>` +
        `<script>document.title='${SVG_SCRIPT_MARK}';fetch('/_coffer/rpc?${SVG_SCRIPT_MARK}',{method:'POST',body:'{}'});</script></svg>`,
    ),
  },
  { name: 'notes-latin1.txt', type: 'text/plain', body: cp1252(LATIN1_TEXT) },
  { name: 'data.json', type: 'application/json', body: Buffer.from(JSON_TEXT) },
  { name: 'server.log', type: 'text/plain', body: Buffer.from(Array.from({ length: BIG_TEXT_BYTES / 20 }, (_, i) => `line ${String(i).padStart(14, '0')}\n`).join('')) },
  { name: 'report.pdf', type: 'application/pdf', body: pdf('Hello PDF') },
  { name: 'tone.wav', type: 'audio/wav', body: wav(AUDIO_SECONDS) },
  { name: 'bundle.zip', type: 'application/zip', body: Buffer.from('PK\x03\x04 not really a zip', 'latin1') },
  { name: 'dump.txt', type: 'text/plain', body: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3, 0, 0]) },
  // Above the 32 MB an image preview loads: never asked for.
  { name: 'huge.png', type: 'image/png', body: Buffer.alloc(33 * 1024 * 1024) },
];

/** The local store's S3 API with the shown account's keys. */
export async function s3For(page: Page): Promise<S3Client> {
  const status = await rpc<LocalStoreStatus>(page, 'localStore.status', {});
  const [user] = await rpc<LocalUser[]>(page, 'localStore.users', {});
  const key = user!.keys[0]!;
  return new S3Client({ endpoint: status.s3Endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: key.accessKey, secretAccessKey: key.secretKey } });
}

/** A new container holding `fixtures`. */
export async function putFixtures(page: Page, container: string, fixtures: Fixture[]): Promise<void> {
  const s3 = await s3For(page);
  await s3.send(new CreateBucketCommand({ Bucket: container }));
  for (const f of fixtures) await s3.send(new PutObjectCommand({ Bucket: container, Key: f.name, Body: f.body, ContentType: f.type }));
  s3.destroy();
}
