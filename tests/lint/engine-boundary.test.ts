// The engine is imported through its facade (src-main/engine/index.ts) only: lint refuses imports of
// its internals (ops/, blobs/, the LMDB index/, engine.ts, context.ts...) from anywhere outside
// src-main/engine. Tests follow the same rule, except the engine's own (tests/engine) and the store
// audit, which test those internals.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// Import rules need no type information: snippets are linted as files that do not exist (as in layers.test.ts).
const eslint = new ESLint({
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/switch-exhaustiveness-check': 'off' },
  },
});
async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  // A snippet that did not parse would pass every "may" case.
  expect(result?.messages.filter((m) => m.fatal)).toEqual([]);
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the engine boundary', () => {
  it.each([
    ['src-main/http/native/handlers/x.ts', "import { resolveRange } from '../../../engine/ops/read-object.js';"],
    ['src-main/http/common/x.ts', "import { heldBytes } from '../../engine/ops/read-object.js';"],
    ['src-main/http/compat/x.ts', "import { BodyHasher } from '../../engine/blobs/hashing.js';"],
    ['src-main/http/ui/x.ts', "import { IndexStore } from '../../engine/index/store.js';"],
    ['src-main/http/x.ts', "import { Engine } from '../engine/engine.js';"],
    ['src-main/backends/x.ts', "import type { ListEntry } from '../engine/ops/list-objects.js';"],
    ['src-main/backends/x.ts', "import { publicAccess } from '../engine/access.js';"],
    ['src-main/http/common/x.ts', "import { decide, type Identity } from '../../engine/access.js';"],
    ['src-main/backends/swift/x.ts', "import { typeFromName } from '../../engine/content-type.js';"],
    ['src-main/services/x.ts', "import type { ObjectInfo } from '../engine/types.js';"],
    ['src-main/cli/x.ts', "import { Engine } from '../engine/engine.js';"],
    ['src-main/app-context.ts', "import type { EngineOptions } from './engine/context.js';"],
    ['src-main/electron/x.ts', "import { objectKey } from '../engine/index/keys.js';"],
    ['tests/compat/x.ts', "import { Engine } from '../../src-main/engine/engine.js';"],
    ['tests/bench/engine/x.ts', "import type { ListParams } from '../../../src-main/engine/ops/list-objects.js';"],
  ])('%s may not: %s', async (file, code) => {
    expect(await refusals(file, code)).toEqual([expect.stringContaining('through its facade, engine/index.js')]);
  });

  it.each([
    ['src-main/http/native/handlers/x.ts', "import { Engine, resolveRange, type ObjectInfo } from '../../../engine/index.js';"],
    ['src-main/backends/x.ts', "import type { ListEntry } from '../engine/index.js';"],
    ['src-main/backends/x.ts', "import { objectIsPublic, publicAccess } from '../engine/index.js';"],
    ['src-main/app-context.ts', "import type { EngineOptions } from './engine/index.js';"],
    ['src-main/engine/x.ts', "import { IndexStore } from './index/store.js';\nimport { BodyHasher } from './blobs/hashing.js';"],
    ['src-main/engine/ops/x.ts', "import { objectKey } from '../index/keys.js';\nimport type { EngineContext } from '../context.js';"],
    ['tests/compat/x.ts', "import { Engine } from '../../src-main/engine/index.js';"],
    ['tests/engine/x.ts', "import { IndexStore } from '../../src-main/engine/index/store.js';"],
    ['tests/bench/x.ts', "import { benchSmall } from './engine/small.js';"],
  ])('%s may: %s', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});
