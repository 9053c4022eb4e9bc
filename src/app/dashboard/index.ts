// The daemon's web dashboard at /ui: the page's files, the history it shows and its pushed updates.
export { Dashboard } from './dashboard.js';
export type { DashboardOptions } from './dashboard.js';
export { DashboardAssets } from './dashboard-assets.js';
export { DashboardHistory } from './dashboard-history.js';
export { DashboardStream } from './dashboard-stream.js';
export { dashboardView } from './dashboard-view.js';
export type { DashboardView } from './dashboard-view.js';
