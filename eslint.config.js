// @ts-check
import tseslint from 'typescript-eslint';

/** Whatever does I/O, or drags in ML or networking, stays out of the rules core. */
const ioModules = [
  'node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'worker_threads', 'net', 'http', 'https',
  'stream', 'crypto', 'process', 'readline', 'url', 'util', 'events', 'zlib', 'dgram', 'tls', 'cluster',
  '@tensorflow/*', 'ws', 'msgpackr', 'commander', 'cli-progress', 'cli-table3',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'models/**', 'web/**/*.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['env/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ioModules, message: 'env/ is the pure rules core: no I/O, ML or networking imports.' },
          { group: ['../agents/*', '../training/*', '../serve/*', '../cli/*', '../bench/*'], message: 'env/ depends on nothing else of ours.' },
        ],
      }],
      'no-restricted-globals': ['error',
        { name: 'process', message: 'env/ does no I/O.' },
        { name: 'console', message: 'env/ does no I/O.' },
      ],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'Use the seeded PRNG passed in.' }],
    },
  },
);
