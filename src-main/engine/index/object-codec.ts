import { Packr } from 'msgpackr';
import type { ObjectRecord, SymlinkTarget } from '../types.js';

/**
 * How object records (the `objects` and `versions` tables) are stored since schema 3: a fixed
 * head with what a listing shows, then msgpack of everything else. A listing decodes the head
 * only (`decodeListed`): decoding whole msgpack maps was most of the CPU of a large listing.
 *
 * Layout: MARK, flags, size f64, mtime f64, [deleteAt f64], [listed size f64],
 * etag (u16 length + latin1), content type (u16 length + utf8), [symlink target: u16 length +
 * JSON], msgpack(other fields). A symlink's target is in the head because Swift's listings show it.
 * MARK (0xc1) is the one byte msgpack never uses, so a value written by schema 2 (a msgpack map)
 * is told apart by its first byte and still read: stores upgrade without rewriting.
 */
const MARK = 0xc1;
const DELETE_MARKER = 1;
const HAS_DELETE_AT = 2;
/** An SLO: listings show the manifest's size, not the record's own (0). */
const HAS_LISTED_SIZE = 4;
/** A symlink: its target follows the content type. */
const HAS_LINK = 8;
/** An SLO with its manifest document's MD5 (Swift's listings show it as `hash`): it follows the link's place. */
const HAS_MANIFEST_ETAG = 16;

const packr = new Packr({ useRecords: false, mapsAsObjects: true, copyBuffers: true });

/** What a listing needs of a record. */
export interface ListedRecord {
  /** The size a listing shows (an SLO's assembled size). */
  size: number;
  etag: string;
  mtime: number;
  contentType: string;
  deleteMarker?: boolean;
  deleteAt?: number;
  link?: SymlinkTarget;
  /** An SLO's manifest document MD5, where it was kept. */
  manifestEtag?: string;
}

/** The size a listing shows where it is not the record's own: an SLO's assembled size. */
function listedSizeOf(rec: ObjectRecord): number | undefined {
  return rec.manifest?.kind === 'slo' ? rec.manifest.size : undefined;
}

function manifestEtagOf(rec: ObjectRecord): string | undefined {
  return rec.manifest?.kind === 'slo' ? rec.manifest.documentEtag : undefined;
}

export function encodeObjectRecord(rec: ObjectRecord): Buffer {
  const { size, mtime, etag, contentType, deleteMarker, deleteAt, link, ...rest } = rec;
  const listedSize = listedSizeOf(rec);
  const manifestEtag = manifestEtagOf(rec);
  const flags =
    (deleteMarker ? DELETE_MARKER : 0) |
    (deleteAt !== undefined ? HAS_DELETE_AT : 0) |
    (listedSize !== undefined ? HAS_LISTED_SIZE : 0) |
    (link ? HAS_LINK : 0) |
    (manifestEtag !== undefined ? HAS_MANIFEST_ETAG : 0);
  const tail = packr.pack(rest);
  const etagBytes = Buffer.byteLength(etag, 'latin1');
  const typeBytes = Buffer.byteLength(contentType, 'utf8');
  const linkJson = link ? JSON.stringify(link) : '';
  const linkBytes = link ? 2 + Buffer.byteLength(linkJson, 'utf8') : 0;
  const manifestEtagBytes = manifestEtag !== undefined ? 2 + Buffer.byteLength(manifestEtag, 'latin1') : 0;
  const out = Buffer.allocUnsafe(
    2 + 16 + (deleteAt !== undefined ? 8 : 0) + (listedSize !== undefined ? 8 : 0) + 2 + etagBytes + 2 + typeBytes + linkBytes + manifestEtagBytes + tail.length,
  );
  out[0] = MARK;
  out[1] = flags;
  let at = out.writeDoubleLE(size, 2);
  at = out.writeDoubleLE(mtime, at);
  if (deleteAt !== undefined) at = out.writeDoubleLE(deleteAt, at);
  if (listedSize !== undefined) at = out.writeDoubleLE(listedSize, at);
  at = out.writeUInt16LE(etagBytes, at);
  at += out.write(etag, at, 'latin1');
  at = out.writeUInt16LE(typeBytes, at);
  at += out.write(contentType, at, 'utf8');
  if (link) {
    at = out.writeUInt16LE(linkBytes - 2, at);
    at += out.write(linkJson, at, 'utf8');
  }
  if (manifestEtag !== undefined) {
    at = out.writeUInt16LE(manifestEtagBytes - 2, at);
    at += out.write(manifestEtag, at, 'latin1');
  }
  tail.copy(out, at);
  return out;
}

interface Head extends ListedRecord {
  ownSize: number;
  /** Where the msgpack tail starts. */
  tailAt: number;
}

/** Node's Buffer has these (toString's own workers) but its typings do not say so; toString's dispatch cost showed in listings. */
interface FastSlices {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

function readHead(b: Buffer): Head {
  const flags = b[1]!;
  const ownSize = b.readDoubleLE(2);
  const mtime = b.readDoubleLE(10);
  let at = 18;
  let deleteAt: number | undefined;
  if (flags & HAS_DELETE_AT) {
    deleteAt = b.readDoubleLE(at);
    at += 8;
  }
  let size = ownSize;
  if (flags & HAS_LISTED_SIZE) {
    size = b.readDoubleLE(at);
    at += 8;
  }
  const etagEnd = at + 2 + b.readUInt16LE(at);
  const etag = (b as unknown as FastSlices).latin1Slice(at + 2, etagEnd);
  const typeEnd = etagEnd + 2 + b.readUInt16LE(etagEnd);
  const contentType = (b as unknown as FastSlices).utf8Slice(etagEnd + 2, typeEnd);
  const head: Head = { size, etag, mtime, contentType, ownSize, tailAt: typeEnd };
  if (flags & HAS_LINK) {
    const linkEnd = typeEnd + 2 + b.readUInt16LE(typeEnd);
    head.link = JSON.parse((b as unknown as FastSlices).utf8Slice(typeEnd + 2, linkEnd)) as SymlinkTarget;
    head.tailAt = linkEnd;
  }
  if (flags & HAS_MANIFEST_ETAG) {
    const end = head.tailAt + 2 + b.readUInt16LE(head.tailAt);
    head.manifestEtag = (b as unknown as FastSlices).latin1Slice(head.tailAt + 2, end);
    head.tailAt = end;
  }
  if (flags & DELETE_MARKER) head.deleteMarker = true;
  if (deleteAt !== undefined) head.deleteAt = deleteAt;
  return head;
}

/**
 * lmdb-js hands decoders a Buffer that may be longer than the value (a shared read buffer) and
 * the value's end; the head is read in place, only msgpack gets an exact view.
 */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** Where the value ends: lmdb-js passes the size when iterating, but its `get` passes its options object. */
function endOf(bytes: Uint8Array, end: unknown): number {
  return typeof end === 'number' ? end : bytes.length;
}

export function decodeObjectRecord(bytes: Uint8Array, endOrOptions?: unknown): ObjectRecord {
  const b = asBuffer(bytes);
  const end = endOf(bytes, endOrOptions);
  if (b[0] !== MARK) return packr.unpack(b.subarray(0, end)) as ObjectRecord;
  const head = readHead(b);
  const rec = packr.unpack(b.subarray(head.tailAt, end)) as ObjectRecord;
  rec.size = head.ownSize;
  rec.etag = head.etag;
  rec.mtime = head.mtime;
  rec.contentType = head.contentType;
  if (head.deleteMarker) rec.deleteMarker = true;
  if (head.deleteAt !== undefined) rec.deleteAt = head.deleteAt;
  if (head.link) rec.link = head.link;
  return rec;
}

export function decodeListedRecord(bytes: Uint8Array, endOrOptions?: unknown): ListedRecord {
  const b = asBuffer(bytes);
  const end = endOf(bytes, endOrOptions);
  if (b[0] === MARK) return readHead(b);
  const rec = packr.unpack(b.subarray(0, end)) as ObjectRecord;
  const listed: ListedRecord = { size: listedSizeOf(rec) ?? rec.size, etag: rec.etag, mtime: rec.mtime, contentType: rec.contentType };
  if (rec.deleteMarker) listed.deleteMarker = true;
  if (rec.deleteAt !== undefined) listed.deleteAt = rec.deleteAt;
  if (rec.link) listed.link = rec.link;
  const manifestEtag = manifestEtagOf(rec);
  if (manifestEtag !== undefined) listed.manifestEtag = manifestEtag;
  return listed;
}

/** lmdb-js encoders: both copy what they keep (strings, copied buffers), so shared read buffers are fine. */
export const objectRecordEncoder = { encode: encodeObjectRecord, decode: decodeObjectRecord };
export const listedRecordDecoder = {
  encode: (): never => {
    throw new Error('Listing views are read-only');
  },
  decode: decodeListedRecord,
};
