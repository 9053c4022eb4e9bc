/** ESM + TypeScript via ts-jest, transpile-only (tsconfig isolatedModules); `npm run typecheck` type-checks. */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^stratd/strategy$': '<rootDir>/src/public/strategy.ts', '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
  // A bound for a test that hangs, not a speed check: on a starved CI machine (another worker, child
  // processes, load 10 on 2 cores) a test that takes 8 s alone took 75 s.
  testTimeout: 120_000,
  // Most suites wait on loopback I/O and timers, not the CPU: two workers halve the wall time on 2 cores.
  maxWorkers: 2,
};
