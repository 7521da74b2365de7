// Lint enforces the layer rules of ../shared/ARCHITECTURE.md: which folder may import which.
import tseslint from 'typescript-eslint';

const NODE = { group: ['node:*'], message: 'This layer runs without Node: no node:* imports.' };
const ELECTRON = { group: ['electron', 'electron/*'], message: 'Only src-main/electron and the preload import electron.' };
const MAIN = { group: ['**/src-main/**', '../src-main/**'], message: 'This layer may not import src-main.' };
const RENDERER = { group: ['**/src-renderer/**'], message: 'Nothing outside the renderer imports it.' };
const HTTP = { group: ['**/http/**', '../http/*'], message: 'The engine and backends never import the HTTP front ends.' };
const SERVICES = { group: ['**/services/**'], message: 'Only the composition root and the shell import services.' };
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'release/**', 'test-results/**', 'playwright-report/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['src-shared/**'], rules: restrict(NODE, ELECTRON, MAIN, RENDERER) },
  {
    files: ['src-renderer/**'],
    rules: {
      ...restrict(NODE, ELECTRON, MAIN),
      // The schemas stay in main: the renderer takes their types only (zod out of its bundle).
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['zod', '**/src-shared/model/connections', ...['accounts', 'browse', 'transfers', 'local-store', 'shell', 'manifest'].map((f) => `**/contract/${f}`)],
              allowTypeImports: true,
              message: 'Type imports only: values from here pull the validation library into the renderer (method-names.ts and local-connection.ts are zod-free).',
            },
          ],
        },
      ],
    },
  },
  { files: ['src-main/engine/**'], rules: restrict(ELECTRON, RENDERER, HTTP, SERVICES, { group: ['node:http', 'node:https', '**/backends/**'], message: 'The engine is protocol-neutral.' }) },
  { files: ['src-main/http/native/**'], rules: restrict(ELECTRON, RENDERER, SERVICES, { group: ['**/compat/**'], message: 'The front ends never import each other.' }) },
  { files: ['src-main/http/compat/**'], rules: restrict(ELECTRON, RENDERER, SERVICES, { group: ['**/native/**'], message: 'The front ends never import each other.' }) },
  { files: ['src-main/http/common/**', 'src-main/http/ui/**', 'src-main/http/*.ts'], rules: restrict(ELECTRON, RENDERER, SERVICES) },
  { files: ['src-main/backends/**'], rules: restrict(ELECTRON, RENDERER, HTTP, SERVICES) },
  { files: ['src-main/services/**'], rules: restrict(ELECTRON, RENDERER, HTTP) },
  { files: ['src-main/*.ts'], rules: restrict(ELECTRON, RENDERER) },
  { files: ['src-main/electron/**', 'src-main/preload/**'], rules: restrict(RENDERER) },
);
