/**
 * Layer boundaries (../shared/DESIGN.md): core ← model ← (venue, catalog, sim, engine, store) ← backtest ← app.
 * The kernel (engine) depends on ports, never on venue or sim. catalog and sim may use venue's wire
 * conventions (HTTP port, error type, schemas): they speak or reuse the same protocol.
 */
const layer = (name) => `^src/${name}/`;

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    { name: 'core-is-the-bottom', severity: 'error', from: { path: layer('core') }, to: { path: '^src/(?!core/)' } },
    { name: 'model-only-core', severity: 'error', from: { path: layer('model') }, to: { path: '^src/(?!core/|model/)' } },
    { name: 'venue-below-kernel', severity: 'error', from: { path: layer('venue') }, to: { path: '^src/(?!core/|model/|venue/)' } },
    { name: 'catalog-only-venue-conventions', severity: 'error', from: { path: layer('catalog') }, to: { path: '^src/(?!core/|model/|venue/|catalog/)' } },
    { name: 'sim-speaks-venue-wire', severity: 'error', from: { path: layer('sim') }, to: { path: '^src/(?!core/|model/|venue/|catalog/|sim/)' } },
    { name: 'kernel-depends-on-ports', severity: 'error', from: { path: layer('engine') }, to: { path: '^src/(?!core/|model/|engine/|store/)' } },
    { name: 'store-only-model', severity: 'error', from: { path: layer('store') }, to: { path: '^src/(?!core/|model/|store/)' } },
    { name: 'settings-below-app', severity: 'error', from: { path: layer('settings') }, to: { path: '^src/(app|backtest|recording|report|sweep|parity)/' } },
    { name: 'backtest-not-app', severity: 'error', from: { path: '^src/(backtest|recording|report|sweep|parity)/' }, to: { path: layer('app') } },
    { name: 'nothing-imports-app', severity: 'error', from: { pathNot: layer('app') }, to: { path: layer('app') } },
    {
      name: 'strategies-use-the-strategy-api',
      severity: 'error',
      comment: 'A strategy imports only the strategy API, domain types and core helpers.',
      from: { path: '^strategies/' },
      to: { path: '^src/(?!core/|model/|engine/strategy/api)' },
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
