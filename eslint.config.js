// Lint, including Atrium's architectural boundaries (VS Code-style enforced layering):
// - src/shared is pure: no Node, no DOM-only globals, no electron, no imports from other layers;
// - the engine (src/main/core), the browser server and the CLI never import electron, so they run
//   under plain Node;
// - the renderer talks to the engine only through the contract, never by importing main code.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['fs', 'path', 'os', 'child_process', 'crypto', 'http', 'net', 'url', 'util', 'stream', 'events', 'worker_threads'];
const noNode = [{ group: ['node:*', ...nodeBuiltins, ...nodeBuiltins.map((m) => `${m}/*`)], message: 'This layer must not use Node APIs.' }];
const noElectron = { name: 'electron', message: 'The engine, server and CLI run under plain Node: never import electron here (put it in the Electron shell, src/main/*.ts).' };

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/main/core/**', 'src/main/server/**', 'src/main/cli/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [{ group: ['electron/*'], message: noElectron.message }] }] },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [noElectron], patterns: [...noNode, { group: ['**/main/**', '**/renderer/**', '**/preload/**', 'react', 'react-dom'], message: 'src/shared is the pure contract: no imports from other layers.' }] },
      ],
    },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': ['error', { paths: [noElectron], patterns: [...noNode, { group: ['**/main/**', '**/preload/**'], message: 'The renderer reaches the engine only through the contract client (src/renderer/src/api).' }] }],
    },
  },
);
