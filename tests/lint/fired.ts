import type { ESLint } from 'eslint';
import { expect } from 'vitest';

/** The rules `eslint` fires on `code` linted as `filePath` (a file that need not exist); a parse error fails the test. */
export async function fired(eslint: ESLint, filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  expect(result?.messages.filter((m) => m.fatal)).toEqual([]);
  return (result?.messages ?? []).map((m) => m.ruleId ?? '');
}
