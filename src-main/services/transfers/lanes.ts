import type { Lane } from './pending.js';

/**
 * Files up to this size run in a wider lane: SMALL_LANE_FACTOR times the concurrency (48 at once
 * by default). A small file's time is its requests' round trips, not bandwidth: three at a time
 * leave the connection and both ends idle between requests (10,000 × 4 KiB to coffer serve: 3 at
 * once 362 files/s), and a server writing many at once commits them together. Uploads: 48 at once
 * 3.46-3.92 s against 24 at once 4.04-4.47 s (interleaved, 4 of 4 pairs faster; 72 and 96 no
 * faster): while some files' requests wait for one of the pool's connections, others are read.
 * Downloads, 2026-11-28, seven interleaved rounds with the disk settled (no mass deletion in the
 * minutes before, README: ext4's recently deleted inodes): 48 at once 5.23-6.52 s against 24 at
 * once 5.16-7.12 s, faster in 6 of 7 rounds (medians of four: 5.47 against 6.15; 36 at once 5.85,
 * 72 at once 5.84).
 */
export const SMALL_FILE_BYTES = 1024 * 1024;
export const SMALL_LANE_FACTOR = 16;

/** A file of unknown size goes with the large ones. */
export const laneOf = (size: number | null): Lane => (size !== null && size <= SMALL_FILE_BYTES ? 'small' : 'large');
