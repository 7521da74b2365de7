// Resumable large uploads on every backend, after a simulated crash: the first attempt is cut off
// mid-way (its signal aborted, as a dying app would leave it), the resume token it saved is all
// a fresh backend gets, and the second attempt sends only the parts that are missing or
// changed, then completes with a composite ETag the backend checked part by part.
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBackend } from '../../src-main/backends/local.js';
import type { ObjectBackend } from '../../src-main/backends/object-backend.js';
import { RemoteS3Backend } from '../../src-main/backends/remote-compat.js';
import { crc32Of } from './helpers.js';
import { ACCOUNT, bytes, containerName, expectCode, md5, readAll, requests, startCoffer, tempFile, v1Backend, type Coffer } from './remote-native-setup.js';

const MiB = 1024 * 1024;
const PART = 5 * MiB;
const SIZE = 17 * MiB; // four parts: 5 + 5 + 5 + 2
let coffer: Coffer;
let s3Keys: { accessKey: string; secretKey: string };

beforeAll(async () => {
  coffer = await startCoffer();
  s3Keys = { accessKey: 'RESUMETESTKEY', secretKey: 'resume-test-secret' };
  await coffer.app.engine.addAccessKey(ACCOUNT, s3Keys);
  // Every backend's parts land in this one engine: multipart parts (local, S3) and segment
  // objects (Swift). Counting them there, and cutting an upload off right after its Nth part is
  // stored, makes the "crash" land at the same point whatever the machine's speed.
  const engine = coffer.app.engine as unknown as Record<'uploadPart' | 'putObject', (...a: unknown[]) => Promise<unknown>>;
  const uploadPart = engine.uploadPart;
  engine.uploadPart = async (...a: unknown[]) => {
    partUploads.push(a[3] as number);
    const stored = await uploadPart(...a);
    afterPartStored?.();
    return stored;
  };
  const putObject = engine.putObject;
  engine.putObject = async (...a: unknown[]) => {
    const stored = await putObject(...a);
    if (String(a[1]).includes('/slo/')) afterPartStored?.();
    return stored;
  };
});

let afterPartStored: (() => void) | undefined;
/** An abort signal that fires once `n` parts of the next upload are stored. */
function crashAfterParts(n: number): AbortSignal {
  const crash = new AbortController();
  let stored = 0;
  afterPartStored = () => {
    if (++stored === n) {
      afterPartStored = undefined;
      crash.abort();
    }
  };
  return crash.signal;
}
afterAll(() => coffer?.close());

interface Case {
  label: string;
  make(): ObjectBackend;
  /** The server-side record of part uploads since log position `from` (part numbers, 1-based). */
  sentParts(from: number, name: string): number[];
}

const partUploads: number[] = [];
const cases: Case[] = [
  {
    label: 'local store (engine multipart)',
    make: () => new LocalBackend(coffer.app.engine, ACCOUNT, { uploadPartSize: PART }),
    sentParts: (from) => partUploads.slice(from),
  },
  {
    label: 'remote S3 (multipart)',
    make: () =>
      new RemoteS3Backend({ endpoint: coffer.url, region: 'us-east-1', accessKeyId: s3Keys.accessKey, secretAccessKey: s3Keys.secretKey, forcePathStyle: true, partSize: PART, queueSize: 1 }),
    sentParts: (from, name) =>
      requests(coffer, from, new RegExp(`PUT \\S+/${name}\\?partNumber=\\d+&uploadId=\\S+ 200`)).map((l) => Number(/partNumber=(\d+)/.exec(l)![1])),
  },
  {
    label: 'remote Swift (SLO)',
    make: () => v1Backend(coffer, { segmentThreshold: PART, segmentSize: PART, concurrency: 1, progressIntervalMs: 0 }),
    sentParts: (from, name) =>
      requests(coffer, from, new RegExp(`PUT \\S+_segments/${name}/slo/\\S+ 201`)).map((l) => Number(/\/(\d{8}) /.exec(l)![1]) + 1),
  },
];

/** What is left in `<container>_segments` (where Swift uploads keep their segments; absent elsewhere). */
async function segmentsLeft(backend: ObjectBackend, container: string): Promise<unknown[]> {
  const left: unknown[] = [];
  try {
    for await (const page of backend.listFolder(`${container}_segments`, { delimiter: '' })) left.push(...page.entries);
  } catch (err) {
    if ((err as { code?: string }).code !== 'NoSuchContainer') throw err;
  }
  return left;
}

describe.each(cases)('resumable upload: $label', (c) => {
  it('resumes after a crash from the saved token, sends only missing or changed parts, and checks the composite ETag', async () => {
    const backend = c.make();
    const container = containerName('resume');
    await backend.createContainer(container);
    const data = bytes(SIZE);
    const file = tempFile(data);
    const name = 'disk.img';
    try {
      // Attempt 1: cut off once two parts are stored.
      let token: string | null = null;
      const first = backend.upload(container, name, { path: file.path }, { signal: crashAfterParts(2), resume: { token: null, save: (t) => (token = t) } });
      await expectCode(first, 'Aborted');
      expect(token).not.toBeNull();
      await expectCode(backend.head(container, name), 'NoSuchKey');
      await sleep(200); // a part answered just before the abort may still be committing
      if (backend.listUnfinishedUploads) {
        expect((await backend.listUnfinishedUploads(container)).map((u) => u.name)).toEqual([name]);
      }

      // The file's third part changes while the app is down: it must be sent again whatever was stored.
      data.fill(7, 2 * PART, 2 * PART + 1000);
      writeFileSync(file.path, data);

      // Attempt 2, by a fresh backend that knows only the token.
      const again = c.make();
      const logFrom = coffer.log.length;
      const partsFrom = partUploads.length;
      const result = await again.upload(container, name, { path: file.path }, { resume: { token, save: (t) => (token = t) } });
      const sent = c.sentParts(c.label.startsWith('local') ? partsFrom : logFrom, name);
      expect(sent).not.toContain(1);
      expect(sent).not.toContain(2);
      expect(sent).toEqual(expect.arrayContaining([3, 4]));
      expect(result.checked).toBe('parts');
      expect(result.size).toBe(SIZE);
      expect(md5(await readAll((await again.download(container, name)).body))).toBe(md5(data));
      // Over S3 the server keeps the CRC32 of all the bytes, made of the parts' of both attempts.
      if (c.label.startsWith('remote S3')) expect((await again.head(container, name)).crc32).toBe(crc32Of(data));
      if (again.listUnfinishedUploads) expect(await again.listUnfinishedUploads(container)).toEqual([]);
    } finally {
      file.remove();
    }
  });

  it('drops what an abandoned upload left behind', async () => {
    const backend = c.make();
    const container = containerName('discard');
    await backend.createContainer(container);
    const file = tempFile(bytes(SIZE));
    try {
      let token: string | null = null;
      await expectCode(backend.upload(container, 'gone.bin', { path: file.path }, { signal: crashAfterParts(1), resume: { token: null, save: (t) => (token = t) } }), 'Aborted');
      await sleep(200);
      await backend.discardUpload!(container, 'gone.bin', token!);
      if (backend.listUnfinishedUploads) expect(await backend.listUnfinishedUploads(container)).toEqual([]);
      expect(await segmentsLeft(backend, container)).toEqual([]);
    } finally {
      file.remove();
    }
  });
});
