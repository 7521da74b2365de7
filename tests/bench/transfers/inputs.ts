/**
 * The three folders every client moves: many small files, a thousand medium ones, one large file.
 * Random bytes (no compression anywhere helps); each file differs from the others.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const KiB = 1024;
const MiB = 1024 * KiB;

export interface Dataset {
  /** small, small-tenth, medium, large: also the object prefix and the local folder's name. */
  name: string;
  /** The local folder holding the files (uploads copy this folder's contents). */
  dir: string;
  files: number;
  bytes: number;
}

/** Sizes from the environment so a trial run can be small; the defaults are the issue's. */
export function datasetSizes() {
  const small = Number(process.env.BENCH_TRANSFER_SMALL_FILES ?? 10_000);
  return {
    small: { files: small, size: 4 * KiB },
    /** A tenth of the small folder, moved by Coffer only: its peak RSS against the whole folder's says whether memory grows with the file count. */
    'small-tenth': { files: Math.max(1, Math.round(small / 10)), size: 4 * KiB },
    medium: { files: Number(process.env.BENCH_TRANSFER_MEDIUM_FILES ?? 1000), size: MiB },
    large: { files: 1, size: Number(process.env.BENCH_TRANSFER_LARGE_MIB ?? 2048) * MiB },
  };
}

function writeFiles(dir: string, files: number, size: number): void {
  mkdirSync(dir, { recursive: true });
  const block = randomBytes(Math.min(size, MiB));
  for (let i = 0; i < files; i++) {
    const fd = openSync(join(dir, `f${String(i).padStart(5, '0')}.bin`), 'w');
    for (let at = 0; at < size; at += block.length) {
      block.writeUInt32BE(i, 0);
      block.writeUInt32BE(at / block.length, 4); // every block of every file differs
      writeSync(fd, block, 0, Math.min(block.length, size - at));
    }
    closeSync(fd);
  }
}

export function makeDatasets(root: string, only: string[]): Dataset[] {
  const sizes = datasetSizes();
  return (Object.entries(sizes) as [keyof typeof sizes, { files: number; size: number }][])
    .filter(([name]) => only.includes(name))
    .map(([name, { files, size }]) => {
      const dir = join(root, name);
      writeFiles(dir, files, size);
      return { name, dir, files, bytes: files * size };
    });
}

/** Files and bytes under a local folder, recursively: what a download actually wrote. */
export function tally(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

