/**
 * Layer boundaries (src/README.md draws them): core ← model ← protocol ← (venue ← catalog, sim), (engine, store)
 * ← recording ← backtest ← (report ← sweep, parity) ← app. The kernel (engine) depends on ports, never on venue or
 * sim; the simulator and the client share the protocol and never import each other.
 */
const layer = (name) => `^src/${name}/`;

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    { name: 'core-is-the-bottom', severity: 'error', from: { path: layer('core') }, to: { path: '^src/(?!core/)' } },
    { name: 'model-only-core', severity: 'error', from: { path: layer('model') }, to: { path: '^src/(?!core/|model/)' } },
    {
      name: 'protocol-is-the-wire',
      severity: 'error',
      comment: "The exchange's protocol (endpoints, signing, wire JSON and enums, error codes, rate windows) belongs to neither side: client and simulator both build on it.",
      from: { path: layer('protocol') },
      to: { path: '^src/(?!core/|protocol/)' },
    },
    { name: 'venue-below-kernel', severity: 'error', from: { path: layer('venue') }, to: { path: '^src/(?!core/|model/|protocol/|venue/)' } },
    { name: 'catalog-client-on-venue-transport', severity: 'error', from: { path: layer('catalog') }, to: { path: '^src/(?!core/|model/|protocol/|venue/|catalog/)' } },
    {
      name: 'sim-speaks-the-protocol-not-the-client',
      severity: 'error',
      comment: 'A change to the client must not break the simulator: the simulator imports the protocol, never venue/ or catalog/.',
      from: { path: layer('sim') },
      to: { path: '^src/(?!core/|model/|protocol/|sim/)' },
    },
    { name: 'kernel-depends-on-ports', severity: 'error', from: { path: layer('engine') }, to: { path: '^src/(?!core/|model/|engine/|store/)' } },
    { name: 'store-only-model', severity: 'error', from: { path: layer('store') }, to: { path: '^src/(?!core/|model/|store/)' } },
    { name: 'settings-below-app', severity: 'error', from: { path: layer('settings') }, to: { path: '^src/(app|recording|backtest|report|sweep|parity)/' } },
    {
      name: 'recording-below-backtest',
      severity: 'error',
      comment: 'Recordings (recorder, formats, readers, prepared form, downloads) know the market, not the runs made on them.',
      from: { path: layer('recording') },
      to: { path: '^src/(?!core/|model/|protocol/|venue/|sim/|settings/|recording/)' },
    },
    { name: 'backtest-is-the-run', severity: 'error', from: { path: layer('backtest') }, to: { path: '^src/(?!core/|model/|protocol/|engine/|store/|sim/|settings/|recording/|backtest/)' } },
    { name: 'report-reads-results', severity: 'error', from: { path: layer('report') }, to: { path: '^src/(?!core/|model/|sim/|recording/|backtest/|report/)' } },
    { name: 'sweep-runs-backtests', severity: 'error', from: { path: layer('sweep') }, to: { path: '^src/(?!core/|model/|engine/|store/|sim/|settings/|recording/|backtest/|report/|sweep/)' } },
    { name: 'parity-compares-runs', severity: 'error', from: { path: layer('parity') }, to: { path: '^src/(?!core/|model/|sim/|settings/|recording/|backtest/|report/|parity/)' } },
    {
      name: 'analysis-studies-runs',
      severity: 'error',
      comment: 'Robustness analysis (Monte Carlo, strategy checks) runs backtests and sweeps; nothing below imports it.',
      from: { path: layer('analysis') },
      to: { path: '^src/(?!core/|model/|engine/|sim/|settings/|recording/|backtest/|report/|sweep/|analysis/)' },
    },
    { name: 'nothing-below-imports-analysis', severity: 'error', from: { path: '^src/(?!app/|analysis/)' }, to: { path: layer('analysis') } },
    { name: 'nothing-imports-app', severity: 'error', from: { pathNot: layer('app') }, to: { path: layer('app') } },
    {
      name: 'strategies-use-the-strategy-entry',
      severity: 'error',
      comment: "A strategy imports only 'stratd/strategy' (src/public/strategy.ts), its own folder and libraries: the same way a user's strategy outside the repository does.",
      from: { path: '^strategies/' },
      to: { path: '^(src/(?!public/strategy\\.ts$)|test/)' },
    },
    {
      name: 'strategies-stay-in-their-folder',
      severity: 'error',
      comment: 'One strategy folder does not reach into another: each is a module a user could copy out.',
      from: { path: '^strategies/([^/]+)/' },
      to: { path: '^strategies/', pathNot: '^strategies/$1/' },
    },
    {
      name: 'public-entry-re-exports-the-strategy-api',
      severity: 'error',
      from: { path: layer('public') },
      to: { path: '^src/(?!core/|model/|engine/strategy/|public/)' },
    },
    { name: 'no-test-code-in-src', severity: 'error', from: { path: '^(src|strategies)/' }, to: { path: '^test/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
