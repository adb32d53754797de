import type { RunComparison, RunReport } from '../runner/report/index.js';
import { toViewComparison, toViewRun } from './build-view-data.js';
import { DEFAULT_CASE_QUERY } from './pages/page-route.js';
import { renderRunPage } from './pages/render-run-page.js';
import { renderViewShell } from './render-view-shell.js';

/** What the HTML report shows besides its run. */
export interface HtmlReportOptions {
  /** The `--baseline` run and its comparison with this one: the report then has a compare page. */
  baseline?: { report: RunReport; comparison: RunComparison };
}

/**
 * The HTML report: one self-contained file with the run, case and (given a baseline) compare
 * pages, the run page drawn into the file so it reads without JavaScript. Its script, stylesheet and data are inline, its Content-Security-Policy allows nothing
 * else, so it opens from disk (file://) or a CI artifact store without any network request.
 */
export function writeHtmlReport(report: RunReport, options: HtmlReportOptions = {}): string {
  const { baseline } = options;
  const run = toViewRun(report);
  return renderViewShell({
    boot: {
      mode: 'static',
      run,
      comparison: baseline ? toViewComparison(report, baseline.report, baseline.comparison) : null,
    },
    assets: 'inline',
    // Drawn into the file, so it reads without JavaScript (CI artifact viewers sandbox scripts);
    // the script then draws the same page and adds the case pages, filters and the comparison.
    page: renderRunPage(run, DEFAULT_CASE_QUERY, 'static', baseline ? baseline.report.run_id : null),
  });
}
