import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'state/**', 'out/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'Time is a port: use the injected Clock.' },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Time is a port: use the injected Clock.' },
      ],
    },
  },
  {
    // Adapters onto the wall clock and real timers, and tests driving real servers, may read real time.
    files: ['src/core/system-time.ts', 'src/app/**', 'test/**', 'bench/**', 'bin/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['src/engine/**', 'src/model/**', 'src/core/**', 'strategies/**'],
    ignores: ['src/core/system-time.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'setTimeout', message: 'Time is a port: schedule on the injected scheduler.' }, { name: 'setInterval', message: 'Time is a port: schedule on the injected scheduler.' }],
    },
  },
);
