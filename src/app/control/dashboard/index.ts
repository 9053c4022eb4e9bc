// The daemon's web dashboard at /ui: the page's files, the history it shows and its pushed updates.
export { Dashboard } from './dashboard.js';
export type { DashboardOptions } from './dashboard.js';
export { DashboardAssets } from './assets.js';
export { DashboardHistory } from './history.js';
export { DashboardStream } from './stream.js';
export { dashboardView } from './view.js';
export type { DashboardView } from './view.js';
