/**
 * ESM + TypeScript, transpile-only through swc (`npm run typecheck` type-checks): CI starts with no jest
 * cache, and swc transforms the ~1,200 files in a fraction of ts-jest's time. The options match tsconfig.json
 * (target ES2022 with define semantics for class fields, imports kept as written).
 */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^stratd/strategy$': '<rootDir>/src/public/strategy.ts', '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022', transform: { useDefineForClassFields: true, verbatimModuleSyntax: true } } },
    ],
  },
  // A bound for a test that hangs, not a speed check: on a starved CI machine (another worker, child
  // processes, load 10 on 2 cores) a test that takes 8 s alone took 75 s.
  testTimeout: 120_000,
  // Most suites wait on loopback I/O and timers, not the CPU: two workers halve the wall time on 2 cores.
  maxWorkers: 2,
};
