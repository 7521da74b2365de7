// What the e2e store holds: written by seed.ts before the server starts, read by the specs to
// know what to expect. Pure data, no Node APIs.

export const ACCOUNT_ID = 'coffer$admin';

/**
 * More local accounts: the app shows one at a time. Their ids sort after ACCOUNT_ID, which stays
 * what the bare connection id `local` names (the first by id) and what the app shows at first.
 */
export const OTHER_ACCOUNTS = [
  { id: 'team$ann', displayName: 'Ann', containers: { 'ann-photos': ['beach.jpg', 'city/night.jpg'], 'ann-empty': [] as string[] } },
  { id: 'team$bob', displayName: 'Bob', containers: { 'bob-docs': ['plan.txt'] } },
  { id: 'zoe', displayName: 'Zoe', containers: { 'zoe-notes': ['todo.md'] } },
] as const;

/** The big folder: three listing pages of 1,000 (the UI's page size). */
export const BIG_FOLDER = 'logs/2024/';
export const BIG_COUNT = 3000;
export const bigName = (i: number) => `${BIG_FOLDER}entry-${String(i).padStart(4, '0')}.log`;

export interface SeedObject {
  name: string;
  body: string;
  contentType?: string;
  meta?: Record<string, string>;
  cacheControl?: string;
}

export const README: SeedObject = {
  name: 'readme.txt',
  body: 'Hello from Coffer.\n',
  contentType: 'text/plain',
  meta: { owner: 'ann', project: 'coffer' },
  cacheControl: 'no-cache',
};

/** Everything in the "archive" container except the big folder. */
export const ARCHIVE_SMALL: SeedObject[] = [
  README,
  { name: 'logs/2023/old.log', body: 'old\n' },
  { name: 'docs/readme.md', body: '# Docs\n' },
  { name: 'docs/guide/intro.md', body: '# Intro\n' },
  { name: 'docs/guide/advanced/tips.md', body: '# Tips\n' },
  { name: 'photos/cat.jpg', body: 'c'.repeat(2048) },
  { name: 'photos/dog.png', body: 'd'.repeat(512) },
  { name: 'photos/bird.gif', body: 'b'.repeat(100) },
  { name: 'sizes/small.txt', body: 's'.repeat(10) },
  { name: 'sizes/medium.csv', body: 'm'.repeat(500) },
  { name: 'sizes/large.bin', body: 'l'.repeat(50_000) },
];

export const ARCHIVE = 'archive';
export const ARCHIVE_OBJECTS = BIG_COUNT + ARCHIVE_SMALL.length;
export const ARCHIVE_BYTES =
  Array.from({ length: BIG_COUNT }, (_, i) => bigBody(i).length).reduce((a, b) => a + b, 0) + ARCHIVE_SMALL.reduce((a, o) => a + o.body.length, 0);

export function bigBody(i: number): string {
  return `log line ${i}\n`;
}

/** A container of objects at its root, more than the folder view loads before End asks for the rest. */
export const LONG = 'long';
export const LONG_COUNT = 25_000;
export const longName = (i: number) => `n-${String(i).padStart(5, '0')}.txt`;

/** A container with nothing in it. */
export const EMPTY = 'empty';
/** A container the live-update test writes into. */
export const LIVE = 'live';

/** A container the metadata-editor spec changes (its own, so other specs' data stays put). */
export const EDITS = 'edits';
export const EDITS_OBJECTS: SeedObject[] = [
  { name: 'report.pdf', body: '%PDF-1.4\n', contentType: 'application/pdf', meta: { author: 'bo', stage: 'draft' }, cacheControl: 'max-age=60' },
  { name: 'limits.txt', body: 'limits\n', contentType: 'text/plain' },
  { name: 'shared.txt', body: 'shared with the world\n', contentType: 'text/plain' },
];

/** A container the operations spec changes: new folders, deletes, renames. */
export const OPS = 'ops';
export const OPS_OBJECTS: SeedObject[] = [
  { name: 'keep.txt', body: 'keep\n', contentType: 'text/plain' },
  { name: 'trash-me.txt', body: 'trash\n', contentType: 'text/plain' },
  { name: 'also-trash.txt', body: 'trash too\n', contentType: 'text/plain' },
  { name: 'old-stuff/a.txt', body: 'a\n' },
  { name: 'old-stuff/deeper/b.txt', body: 'b\n' },
  { name: 'draft.txt', body: 'draft\n', contentType: 'text/plain' },
  { name: 'drafts/one.txt', body: 'one\n' },
  { name: 'drafts/sub/two.txt', body: 'two\n' },
];

/** A versioned container: one object written three times (bodies grow, so sizes tell them apart). */
export const VERSIONED = 'versioned';
export const VERSIONED_NAME = 'notes.txt';
export const VERSIONED_BODIES = ['v1\n', 'v2 two\n', 'v3 three!\n'];
