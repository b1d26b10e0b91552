// Lint, including Atrium's architectural boundaries (VS Code-style enforced layering):
// - src/shared is pure: no Node, no DOM-only globals, no electron, no imports from other layers;
// - the engine (src/main/core), the browser server and the CLI never import electron, so they run
//   under plain Node;
// - the renderer talks to the engine only through the contract, never by importing main code;
// - the engine starts child processes only from the files listed in childProcessOwners (each one
//   audited for what it runs and when), and nothing anywhere spawns `git` except the hardened git
//   runner (src/main/core/git/runGit.ts), which keeps repository configuration from running code;
// - the engine's folders are layers (src/main/core/README.md): an import goes down a layer or stays
//   in its folder, never up, and the capabilities (rules, extensions, hooks) never import each other
//   (eslint-plugin-boundaries, see engineLayers below).
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['fs', 'path', 'os', 'child_process', 'crypto', 'http', 'net', 'url', 'util', 'stream', 'events', 'worker_threads'];
const noNode = [{ group: ['node:*', ...nodeBuiltins, ...nodeBuiltins.map((m) => `${m}/*`)], message: 'This layer must not use Node APIs.' }];
const noElectron = { name: 'electron', message: 'The engine, server and CLI run under plain Node: never import electron here (put it in the Electron shell, src/main/*.ts).' };

// The engine's only modules that may start processes; a new one needs the same review (what it runs, whether before trust).
const childProcessOwners = [
  'src/main/core/git/runGit.ts',
  'src/main/core/hooks/runCommand.ts',
  'src/main/core/extensions/commands/run.ts',
  'src/main/core/sessions/installer.ts',
  'src/main/core/sessions/terminals.ts',
  'src/main/core/process/processTree.ts',
  'src/main/core/sessions/supervisor.ts',
  // opens a path in the user's editor: an absolute tool found outside every workspace, no shell
  'src/main/core/process/launchEditor.ts',
];
const noChildProcess = {
  group: ['child_process', 'node:child_process'],
  message: 'Only the audited process owners of the engine start processes (git goes through src/main/core/git/runGit.ts); see childProcessOwners in eslint.config.js.',
};
const spawnNames = '/^(spawn|spawnSync|exec|execSync|execFile|execFileSync|execFileAsync|execAsync|fork)$/';
const gitSpawn = {
  selector: `CallExpression:matches([callee.name=${spawnNames}], [callee.property.name=${spawnNames}]):matches([arguments.0.value=/^git(\\.exe)?(\\s|$)/i], [arguments.0.quasis.0.value.raw=/^git(\\.exe)?(\\s|$)/i])`,
  message: 'Run git only through runGit/runGitSync (src/main/core/git/runGit.ts): a plain git in a repository runs its fsmonitor, hooks and filters.',
};

// The engine's layers, bottom → top (src/main/core/README.md draws them). A folder may import its own
// files and every folder of a lower layer; folders of one layer may import each other except the
// capabilities, which stay independent (what one needs from another is declared as a narrow type and
// passed in from above). formats/ imports nothing of the engine. The app layer is api/, acpFront/ plus the files
// directly in src/main/core (engine.ts, dispatcher.ts, handlers.ts, migrations.ts, ...).
const engineLayers = [
  ['formats'],
  ['git', 'store', 'events', 'process', 'credentials'],
  ['workspaces', 'files'],
  ['rules', 'extensions', 'hooks'],
  ['resources'],
  ['trust'],
  ['sessions'],
  ['providers'],
  ['api', 'acpFront', 'app'],
];
const capabilities = ['rules', 'extensions', 'hooks'];
const layerElements = engineLayers.flat().filter((t) => t !== 'app').map((type) => ({ type, pattern: `src/main/core/${type}`, partialMatch: false }));
const layerPolicies = engineLayers.flatMap((layer, i) =>
  layer.map((type) => {
    const above = engineLayers.slice(i + 1).flat();
    const siblings = type === 'formats' ? engineLayers.flat().filter((t) => t !== 'formats') : capabilities.includes(type) ? capabilities.filter((t) => t !== type) : [];
    const banned = [...new Set([...above, ...siblings])];
    return banned.length === 0 ? null : { from: { element: { type } }, disallow: { to: { element: { types: { anyOf: banned } } } } };
  }).filter(Boolean),
);

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
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [{ group: ['electron/*'], message: noElectron.message }, noChildProcess] }] },
  },
  {
    files: childProcessOwners,
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron], patterns: [{ group: ['electron/*'], message: noElectron.message }] }] },
  },
  {
    files: ['src/**', 'scripts/**', 'bin/**', 'bench/**'],
    ignores: ['src/main/core/git/runGit.ts'],
    rules: { 'no-restricted-syntax': ['error', gitSpawn] },
  },
  {
    files: ['src/main/core/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: 'tsconfig.json' } },
      'boundaries/elements': [...layerElements, { type: 'app', pattern: 'src/main/core', partialMatch: false }],
      'boundaries/elementsSingleMatch': true,
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          message: 'Engine layering: {{from.element.type}} may not import {{to.element.type}} (imports go down a layer or stay in their folder; capabilities never import each other; formats/ imports nothing of the engine). See src/main/core/README.md.',
          policies: layerPolicies,
        },
      ],
    },
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
