// Lint enforces the layer rules of ../shared/ARCHITECTURE.md (which folder may import which), raw
// Electron IPC in its two bridge files, the command line's own rules, and type-aware and React hooks
// rules. A rule set again by a later block loses the earlier block's options (flat config replaces,
// never merges them): every no-restricted-imports below goes through restrict(), which adds the IPC
// one, and a block that sets no-restricted-syntax must keep IPC_SYNTAX.
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const NODE = { group: ['node:*'], message: 'This layer runs without Node: no node:* imports.' };
const ELECTRON = { group: ['electron', 'electron/*'], message: 'Only src-main/electron and the preload import electron.' };
const MAIN = { group: ['**/src-main/**', '../src-main/**'], message: 'This layer may not import src-main.' };
const RENDERER = { group: ['**/src-renderer/**'], message: 'Nothing outside the renderer imports it.' };
const HTTP = { group: ['**/http/**', '../http/*'], message: 'The engine and backends never import the HTTP front ends.' };
const SERVICES = { group: ['**/services/**'], message: 'Only the composition root and the shell import services.' };
// The engine through its facade only (src-main/engine/index.ts): never its ops/, blobs/, index/ or other files.
const ENGINE = {
  group: ['**/engine/*', '!**/engine/index.js'],
  message: 'Import the engine through its facade, engine/index.js: its other files are its own.',
};
// Tests name the sources by path; only the engine's own tests (and the store audit) reach its insides.
const ENGINE_FROM_TESTS = { ...ENGINE, group: ['**/src-main/engine/*', '!**/src-main/engine/index.js'] };
const SHELL = { group: ['**/electron/**', '**/preload/**', '../electron/*', '../preload/*'], message: 'The command line runs under plain Node, where Electron may not be installed, and bin/coffer.mjs decides whether its compiled copy is current without looking at the shell: it never imports src-main/electron or the preload.' };

// Raw Electron IPC in one bridge file each (ipc-bridge.ts in main, preload.ts in the preload):
// every other file reaches the other side through the typed contract, so no channel escapes the
// sender check and the method allow-list (GitHub Desktop's rule).
const BRIDGES = ['src-main/electron/ipc-bridge.ts', 'src-main/preload/preload.ts'];
const IPC_MESSAGE = 'Raw Electron IPC lives in src-main/electron/ipc-bridge.ts and src-main/preload/preload.ts only: call the contract instead.';
const IPC = { name: 'electron', importNames: ['ipcMain', 'ipcRenderer'], message: IPC_MESSAGE };
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns, paths: [IPC] }] });
// Reached some other way than a named import: `electron.ipcMain`, `const { ipcRenderer } = electron`.
const IPC_SYNTAX = [
  { selector: 'MemberExpression[property.name=/^ipc(Main|Renderer)$/]', message: IPC_MESSAGE },
  { selector: 'VariableDeclarator > ObjectPattern > Property[key.name=/^ipc(Main|Renderer)$/]', message: IPC_MESSAGE },
];

const TYPED = ['src-main/**/*.ts', 'src-shared/**/*.ts', 'src-renderer/**/*.{ts,tsx}'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'release/**', 'test-results/**', 'playwright-report/**', 'reports/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Type-aware rules where the app's code is: a promise nobody awaits loses its rejection (an
  // unhandled rejection, or an error the user never sees), and a switch over a union must name
  // every member, so a new code, state or kind is a compile-time question everywhere it is told
  // apart. `void` marks a promise left to run on purpose; its errors are handled where it is made.
  {
    files: TYPED,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  { files: ['src-main/**', 'src-shared/**', 'src-renderer/**'], rules: { ...restrict(), 'no-restricted-syntax': ['error', ...IPC_SYNTAX] } },
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
  { files: ['src-main/http/native/**'], rules: restrict(ELECTRON, RENDERER, SERVICES, ENGINE, { group: ['**/compat/**'], message: 'The front ends never import each other.' }) },
  { files: ['src-main/http/compat/**'], rules: restrict(ELECTRON, RENDERER, SERVICES, ENGINE, { group: ['**/native/**'], message: 'The front ends never import each other.' }) },
  { files: ['src-main/http/common/**', 'src-main/http/ui/**', 'src-main/http/*.ts'], rules: restrict(ELECTRON, RENDERER, SERVICES, ENGINE) },
  { files: ['src-main/backends/**'], rules: restrict(ELECTRON, RENDERER, HTTP, SERVICES, ENGINE) },
  { files: ['src-main/services/**'], rules: restrict(ELECTRON, RENDERER, HTTP, ENGINE) },
  { files: ['src-main/*.ts', 'src-main/bin/**'], rules: restrict(ELECTRON, RENDERER, ENGINE) },
  { files: ['src-main/electron/**', 'src-main/preload/**'], rules: restrict(RENDERER, ENGINE) },
  { files: BRIDGES, rules: { 'no-restricted-imports': ['error', { patterns: [RENDERER, ENGINE] }], 'no-restricted-syntax': 'off' } },
  // The command line: `coffer` (src-main/cli.ts, started by src-main/bin/coffer.mjs) and its helpers in src-main/cli/.
  {
    files: ['src-main/cli.ts', 'src-main/cli/**'],
    rules: {
      ...restrict(ELECTRON, RENDERER, SHELL, ENGINE),
      // Standard output is the command's answer (`coffer user info` prints JSON a script parses);
      // every line on it is written on purpose, with process.stdout/stderr.write, never a stray console.log.
      'no-console': 'error',
    },
  },
  // Only the command's entry ends the process, after it closed the app (requests under way finish,
  // the index closes) and released the data directory's lock. An exit anywhere else (a CLI helper,
  // the engine, a handler, the desktop app's main, which quits through app.exit) cuts all that
  // short and leaves the lock file behind.
  {
    files: ['src-main/**'],
    ignores: ['src-main/cli.ts', 'src-main/bin/**'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'exit', message: 'Throw (a CofferError says what went wrong): src-main/cli.ts ends the process, after closing the app and unlocking the data directory.' }],
    },
  },
  { files: ['tests/**'], ignores: ['tests/engine/**', 'tests/reliability/store-audit.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [ENGINE_FROM_TESTS] }] } },
);
