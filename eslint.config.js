// @ts-check
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { noTypeCycle } from './eslint.typeCycles.js';

/** Whatever does I/O, or drags in ML or networking, stays out of env/ (the rules core and the Gym layer). */
const ioModules = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'child_process',
  'worker_threads',
  'net',
  'http',
  'https',
  'stream',
  'crypto',
  'process',
  'readline',
  'url',
  'util',
  'events',
  'zlib',
  'dgram',
  'tls',
  'cluster',
  '@tensorflow/*',
  'ws',
  'ioredis',
  'bullmq',
  'msgpackr',
  'commander',
  'cli-progress',
  'cli-table3',
  'pino',
];

/**
 * The layer graph: env/rules ← env/gym ← agents (which also uses nn) ← training; serve uses
 * all of them; bridge (the stdio server for Python) uses env and agents, and nothing imports it;
 * nn and support know no game (support, game-free helpers that may do I/O, imports nothing of
 * ours); nothing imports cli or bench. Each entry: a folder, and the folders of ours it must not
 * import from.
 */
const layers = {
  support: ['env', 'nn', 'agents', 'training', 'serve', 'bridge', 'web', 'cli', 'bench', 'scripts'],
  'env/rules': ['env/gym', 'env/index.ts', 'nn', 'agents', 'training', 'serve', 'bridge', 'cli', 'bench', 'scripts'],
  'env/gym': ['env/index.ts', 'nn', 'agents', 'training', 'serve', 'bridge', 'cli', 'bench', 'scripts'],
  nn: ['env', 'agents', 'training', 'serve', 'bridge', 'cli', 'bench', 'scripts'],
  agents: ['training', 'serve', 'bridge', 'cli', 'bench', 'scripts'],
  training: ['serve', 'bridge', 'cli', 'bench', 'scripts'],
  serve: ['bridge', 'cli', 'bench', 'scripts'],
  bridge: ['training', 'serve', 'cli', 'bench', 'scripts'],
  scripts: ['bridge', 'cli', 'bench'],
  test: ['cli', 'bench'],
  web: ['bridge', 'cli', 'bench'],
  client: ['web', 'agents', 'nn', 'training', 'bridge', 'cli', 'bench', 'scripts', 'support'],
};
const zones = Object.entries(layers).map(([target, forbidden]) => ({
  target: `./${target}`,
  from: forbidden.map((f) => `./${f}`),
  message: `${target}/ may not import from ${forbidden.join(', ')} (layers: support ← env/rules ← env/gym ← agents (+ nn) ← training ← serve; bridge uses env and agents; nothing imports bridge, cli or bench).`,
}));

/**
 * Size limits, so that files stay by concept and functions readable: a function of at most 80
 * lines, a source file of at most 450 (blank lines and comments not counted; tests excepted).
 */
const MAX_FUNCTION_LINES = 80;
const MAX_FILE_LINES = 450;

/** typescript-eslint's no-unsafe-* rules: on in the code, off in the tests, which read JSON output and check its shape with expect. */
const unsafeAny = ['no-unsafe-argument', 'no-unsafe-assignment', 'no-unsafe-call', 'no-unsafe-member-access', 'no-unsafe-return'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'models/**', 'web/**/*.js', 'runs/**', '.scratch/**', 'python/**'] },
  // Type-checked rules (floating and misused promises, awaiting non-promises, needless assertions, …):
  // the server and the trainer are asynchronous.
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['vitest.config.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
  { files: ['test/**/*.ts'], rules: Object.fromEntries(unsafeAny.map((rule) => [`@typescript-eslint/${rule}`, 'off'])) },
  {
    plugins: { 'import-x': importX, yaniv: { rules: { 'no-type-cycle': noTypeCycle } } },
    settings: {
      // Without the extensions every .ts module is "not a module" to import-x and its no-cycle checks nothing.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': ['error', { zones }],
      // Cycles of values (import-x), and those that close through a type-only import (eslint.typeCycles.js).
      'import-x/no-cycle': 'error',
      'yaniv/no-type-cycle': 'error',
      'max-lines': ['error', { max: MAX_FILE_LINES, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: MAX_FUNCTION_LINES, skipBlankLines: true, skipComments: true }],
    },
  },
  { files: ['test/**/*.ts'], rules: { 'max-lines': 'off', 'max-lines-per-function': 'off' } },
  {
    // The page runs in the browser as compiled, with an import map of the view library only.
    files: ['web/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // The rules core's pure card and group modules are served to the page (serve/net/static.ts, BROWSER_RULES).
              group: [
                '../*',
                '!../client',
                '!../env',
                '../env/*',
                '!../env/rules',
                '../env/rules/*',
                '!../env/rules/cards.js',
                '!../env/rules/groups.js',
                '!../env/rules/tableSizes.js',
              ],
              allowTypeImports: true,
              message:
                "web/ runs in the browser: it may import only types from the rest of the project (erased when compiled), and the modules serve/net/static.ts serves (client/, the rules core's cards, groups and table sizes).",
            },
            {
              regex: '^(?!\\.\\.?/|preact$|preact/hooks$|htm$|uqr$)',
              message:
                "web/index.html's import map serves preact, preact/hooks, htm and uqr (serve/net/static.ts, VENDOR_MODULES), and nothing else.",
            },
          ],
        },
      ],
    },
  },
  {
    // The protocol client (yaniv-arena/client) runs in browsers as compiled, served under /client/.
    files: ['client/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\./)',
              allowTypeImports: true,
              message: 'client/ runs in browsers as it is: it may import only its own modules, and types (erased when compiled).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['env/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ioModules, message: 'env/ is the pure rules core and Gym layer: no I/O, ML or networking imports.' }],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'env/ does no I/O.' },
        { name: 'console', message: 'env/ does no I/O.' },
      ],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'Use the seeded PRNG passed in.' }],
    },
  },
);
