import { html, type SafeHtml } from './html.js';
import { type PageMode, type PageRoute, routeHref } from './page-route.js';
import { renderCasePage } from './render-case-page.js';
import { renderComparePage, renderNotFoundPage } from './render-compare-page.js';
import { renderLabelControls } from './render-label-controls.js';
import { renderOptimizationPage } from './render-optimization-page.js';
import { renderRunPage } from './render-run-page.js';
import { renderRunsPage } from './render-runs-page.js';
import type { Crumb, RenderedPage } from './rendered-page.js';
import type { ViewDataSource } from './view-data-source.js';

/** The page at a route, drawn from the data source; an unknown run or case gives the not-found page. */
export async function pageForRoute(
  route: PageRoute,
  source: ViewDataSource,
  mode: PageMode,
): Promise<RenderedPage> {
  switch (route.page) {
    case 'runs':
      return renderRunsPage(await source.runList(), mode);
    case 'run': {
      const payload = await source.run(route.runId);
      if (!payload.found) return renderNotFoundPage(payload.message, mode);
      return renderRunPage(payload.value.run, route.query, mode, payload.value.previous_run_id);
    }
    case 'case': {
      const payload = await source.run(route.runId);
      if (!payload.found) return renderNotFoundPage(payload.message, mode);
      const testCase = payload.value.run.cases.find((entry) => entry.name === route.caseName);
      if (!testCase)
        return renderNotFoundPage(`Run ${route.runId} has no case named "${route.caseName}".`, mode);
      // The same case in the previous run, for the answer's diff (a report file has only its own run).
      const previousId = payload.value.previous_run_id;
      const previousRun =
        previousId !== null ? await source.run(previousId).catch(() => undefined) : undefined;
      const previousCase = previousRun?.found
        ? previousRun.value.run.cases.find((entry) => entry.name === testCase.name)
        : undefined;
      const page = renderCasePage(
        payload.value.run,
        testCase,
        mode,
        previousCase && previousId !== null ? { runId: previousId, testCase: previousCase } : undefined,
      );
      const labels = renderLabelControls(payload.value.run, testCase, await source.labelling());
      return { ...page, body: html`${page.body}${labels}` };
    }
    case 'compare': {
      const payload = await source.compare(route.currentId, route.baselineId);
      if (!payload.found) return renderNotFoundPage(payload.message, mode);
      return renderComparePage(payload.value.comparison, mode, payload.value.choices);
    }
    case 'optimization': {
      const payload = await source.optimization(route.optimizeId);
      return payload.found
        ? renderOptimizationPage(payload.value)
        : renderNotFoundPage(payload.message, mode);
    }
    case 'not-found':
      return renderNotFoundPage('There is no page at this address.', mode);
  }
}

/** The breadcrumb trail; the last step is the current page. */
export function renderCrumbs(crumbs: readonly Crumb[], mode: PageMode): SafeHtml {
  return html`<ol>${crumbs.map((crumb, index) =>
    index === crumbs.length - 1
      ? html`<li><a href="${routeHref(crumb.route, mode)}" aria-current="page">${crumb.label}</a></li>`
      : html`<li><a href="${routeHref(crumb.route, mode)}">${crumb.label}</a></li>`,
  )}</ol>`;
}
