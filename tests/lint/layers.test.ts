import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The import rules need no type information: snippets are linted as files that do not exist (the
// type-aware rules, which need a file in a tsconfig, have their own test in rules-typed.test.ts).
const eslint = new ESLint({
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/switch-exhaustiveness-check': 'off' },
  },
});
async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  // A snippet that did not parse would pass every "may" case.
  expect(result?.messages.filter((m) => m.fatal)).toEqual([]);
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

describe('layer rules of the architecture', () => {
  it.each([
    ['src-shared/x.ts', "import 'node:fs';"],
    ['src-shared/x.ts', "import 'electron';"],
    ['src-shared/x.ts', "import '../src-main/engine/engine.js';"],
    ['src-renderer/x.ts', "import 'node:path';"],
    ['src-renderer/x.ts', "import '../src-main/engine/engine.js';"],
    ['src-main/engine/x.ts', "import 'electron';"],
    ['src-main/engine/x.ts', "import 'node:http';"],
    ['src-main/engine/x.ts', "import '../http/server.js';"],
    ['src-main/http/native/x.ts', "import '../compat/router.js';"],
    ['src-main/http/compat/x.ts', "import '../native/router.js';"],
    ['src-main/backends/x.ts', "import '../http/native/router.js';"],
    ['src-main/services/x.ts', "import 'electron';"],
    ['src-renderer/x.ts', "import { z } from 'zod';"],
    ['src-renderer/x.ts', "import { LOCAL_CONNECTION_ID } from '../src-shared/model/connections';"],
    ['src-renderer/x.ts', "import { browseMethods } from '../src-shared/contract/browse';"],
  ])('%s may not: %s', async (file, code) => {
    expect(await restricted(file, code)).not.toEqual([]);
  });

  it.each([
    ['src-main/engine/x.ts', "import 'node:fs';\nimport '../../src-shared/errors.js';"],
    ['src-main/electron/x.ts', "import 'electron';"],
    ['src-main/preload/x.ts', "import 'electron';"],
    ['src-renderer/x.ts', "import '../src-shared/names.js';"],
    ['src-renderer/x.ts', "import type { ConnectionInfo } from '../src-shared/model/connections';\nimport { METHOD_NAMES } from '../src-shared/contract/method-names';"],
    ['src-main/http/native/x.ts', "import '../../engine/index.js';\nimport '../common/dates.js';"],
  ])('%s may: %s', async (file, code) => {
    expect(await restricted(file, code)).toEqual([]);
  });
});
