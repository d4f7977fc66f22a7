// Lint for server, SDK, web, load tools and tests: typescript-eslint's recommended rules plus the
// project's own walls (pure rules; no client id looked up in a plain object by accident).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'build/', 'data/', 'test-artifacts/', 'web/art/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
      eqeqeq: ['error', 'always'],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='describe'][callee.property.name=/^(only|skip)$/]",
          message: 'No focused or skipped tests.',
        },
        {
          selector: "CallExpression[callee.object.name='it'][callee.property.name=/^(only|skip)$/]",
          message: 'No focused or skipped tests.',
        },
      ],
    },
  },
  {
    // A room looked up by a client-given id through matchMaker.getRoomById (a plain object) answers
    // `__proto__` with Object.prototype: server/colyseus/localRoom.ts is the one guarded lookup.
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'matchMaker',
          property: 'getRoomById',
          message: 'Use localRoom() (server/colyseus/localRoom.ts): ids can be "__proto__".',
        },
      ],
    },
  },
  {
    // The rules are pure: no clock, no Math.random, no Colyseus.
    files: ['server/rules/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Every random choice goes through the game’s seeded PRNG.' },
        { object: 'Date', property: 'now', message: 'The rules have no clock.' },
      ],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['colyseus', '@colyseus/*', 'node:*'], message: 'The rules import nothing from Colyseus or Node.' }] },
      ],
    },
  },
  {
    // Tests read untyped JSON replies and decoded messages field by field.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['web/src/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
