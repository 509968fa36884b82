// ESLint (flat config) with typescript-eslint, type-aware: `npm run lint` (part of `npm run check`).
// Errors are what must never land (a floating promise, a real bug the recommended rules catch);
// the rules the code does not meet yet are warnings, counted in the report of issue 27, so the
// check passes today and each warning can be paid off where the code is next touched.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Recommended rules the current code breaks in many places: warnings until it is cleaned up. */
const NOT_YET = {
  // tests match terminal output to the space (`/^  ✗ …/`): {2} would hide what is asserted
  'no-regex-spaces': 'off',
  '@typescript-eslint/no-explicit-any': 'warn',
  '@typescript-eslint/no-unused-vars': [
    'warn',
    { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
  ],
  '@typescript-eslint/no-unused-expressions': 'warn',
  '@typescript-eslint/no-non-null-asserted-optional-chain': 'warn',
  '@typescript-eslint/no-unsafe-function-type': 'warn',
  '@typescript-eslint/no-empty-object-type': 'warn',
  '@typescript-eslint/no-require-imports': 'warn',
  '@typescript-eslint/ban-ts-comment': 'warn',
  'no-empty': 'warn',
  'no-control-regex': 'warn',
  'no-useless-escape': 'warn',
  'no-constant-condition': 'warn',
  'no-cond-assign': 'warn',
  'no-sparse-arrays': 'warn',
  'no-fallthrough': 'warn',
  'no-case-declarations': 'warn',
  'no-async-promise-executor': 'warn',
  'no-unsafe-finally': 'warn',
  'no-prototype-builtins': 'warn',
  'prefer-const': 'warn',
  'no-self-assign': 'warn',
  'no-useless-assignment': 'warn',
  'preserve-caught-error': 'warn',
  'no-unassigned-vars': 'warn',
};

export default tseslint.config(
  {
    ignores: [
      'build/',
      'node_modules/',
      '**/node_modules/',
      'src/serializers/typia/generated/',
      'src/serializers/typia/templates/',
      'test/fixtures/',
      'jsonbench-results/',
      '.jsonbench/',
      'test-output/',
      'workers/',
      'vendor/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test's test()/describe() return promises the runner itself awaits
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      'max-lines-per-function': ['warn', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], languageOptions: { globals: globals.node } },
  { rules: NOT_YET },
);
