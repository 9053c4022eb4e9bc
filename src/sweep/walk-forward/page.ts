import { page } from '../../report/page.js';
import { lowerIsBetter } from '../output.js';
import { walkForwardSectionHtml } from './report.js';
import type { WalkForwardResult } from './run.js';
import type { WalkForwardSetup } from './output.js';

/** report.html of `stratd walkforward`: what was run, then the walk-forward section. */
export function walkForwardReportHtml(result: WalkForwardResult, setup: WalkForwardSetup): string {
  return page({
    title: 'stratd walkforward',
    heading: 'stratd walkforward',
    meta: [
      `${result.windows.length} ${setup.anchored ? 'anchored' : 'rolling'} windows × ${setup.combinations} combinations, chosen by ${result.metric}${lowerIsBetter(result.metric) ? ' (lower is better)' : ''}`,
      `recordings: ${setup.recordings.join(', ')}`,
    ],
    body: walkForwardSectionHtml(result, setup.axes),
  });
}
