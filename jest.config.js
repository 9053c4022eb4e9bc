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
  // A worker's heap grows by some MB per test file (modules of finished files stay reachable) to 1.5-2.5 GB
  // by the end of a full run; Node then takes longer than jest's 500 ms to tear such a heap down after the
  // worker's last file (2.4 GB: 820 ms on a loaded machine), and jest reports "A worker process has failed to
  // exit gracefully". A worker past 1 GB after a file is replaced by a fresh one.
  workerIdleMemoryLimit: '1GB',
};
