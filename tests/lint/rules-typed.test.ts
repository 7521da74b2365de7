// The type-aware rules (floating promises, switches that miss a member of a union), with the
// configuration as `npm run lint` runs it. Building the type information takes most of this
// file's time, so `npm run test:fast` leaves it to `npm test`.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { fired } from './fired.js';

const typed = new ESLint();

// Type information comes from the tsconfig that holds the file, so each snippet stands in for a
// real file of its layer (the file on disk is not read, nor changed).
describe('type-aware rules', () => {
  it.each([
    ['src-main/services/secrets.ts', 'export async function save(write: () => Promise<void>) {\n  write();\n}'],
    ['src-renderer/features/transfers/progress.ts', "export function go(load: () => Promise<void>) {\n  load().then(() => undefined);\n}"],
    ['src-shared/names.ts', 'export function later(p: Promise<number>) {\n  p.finally(() => undefined);\n}'],
  ])('a floating promise in %s', async (file, code) => {
    expect(await fired(typed, file, code)).toContain('@typescript-eslint/no-floating-promises');
  }, 60_000);

  it('a promise awaited, or left to run on purpose with void, passes', async () => {
    const code = 'export async function save(write: () => Promise<void>) {\n  await write();\n  void write().catch(() => undefined);\n}';
    expect(await fired(typed, 'src-main/services/secrets.ts', code)).toEqual([]);
  }, 60_000);

  it.each([
    ['src-renderer/features/preview/preview-kind.ts', "type Kind = 'image' | 'text' | 'pdf';\nexport function f(k: Kind): number {\n  switch (k) {\n    case 'image':\n      return 1;\n    default:\n      return 0;\n  }\n}"],
    ['src-main/services/secrets.ts', "import type { CofferErrorCode } from '../../src-shared/errors.js';\nexport function f(c: CofferErrorCode): number {\n  switch (c) {\n    case 'NoSuchKey':\n      return 404;\n  }\n  return 500;\n}"],
  ])('a switch that misses a member of its union in %s (a default does not excuse it)', async (file, code) => {
    expect(await fired(typed, file, code)).toContain('@typescript-eslint/switch-exhaustiveness-check');
  }, 60_000);
});
