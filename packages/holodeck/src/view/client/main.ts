// The browser side of `holodeck test view` and of a static report file: draws the page of the
// address from the data source, follows links without reloading, keeps filters and sorting in
// the address, and (served) redraws when the server says a run changed.
import { pageForRoute, renderCrumbs } from '../pages/page-for-route.js';
import { type CaseQuery, type PageMode, type PageRoute, parseRoute, routeHref } from '../pages/page-route.js';
import { renderCaseTable } from '../pages/render-run-page.js';
import type { ViewDataSource } from '../pages/view-data-source.js';
import type { ViewBootData } from '../view-data.js';
import { submitLabel } from './label-form.js';
import { followLeaderTabEvents } from './leader-tab-events.js';
import { ServedSource } from './served-source.js';
import { StaticSource } from './static-source.js';

function readBoot(): ViewBootData {
  const text = document.getElementById('holodeck-data')?.textContent ?? '{"mode":"served"}';
  // Written by holodeck into this page (escaped for a script element): trusted like the page.
  return JSON.parse(text) as ViewBootData;
}

const boot = readBoot();
const mode: PageMode = boot.mode;
const served = boot.mode === 'served' ? new ServedSource() : undefined;
const source: ViewDataSource =
  boot.mode === 'static' ? new StaticSource(boot) : (served ?? new ServedSource());
const defaultAddress = boot.mode === 'static' ? `/runs/${encodeURIComponent(boot.run.run_id)}` : '/';

function element(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found;
}

const main = element('main');
const crumbs = element('crumbs');

function currentAddress(): string {
  if (mode === 'static') return location.hash.replace(/^#/, '') || defaultAddress;
  return `${location.pathname}${location.search}`;
}

let shown: PageRoute = parseRoute(currentAddress());
/** The address last drawn: a change of the fragment alone (served) is not a new page. */
let drawnAddress = '';
let drawing = 0;

/** Draws the page of the current address; `focus` moves focus to its heading (after a navigation). */
async function draw(focus: 'heading' | 'keep'): Promise<void> {
  const ticket = ++drawing;
  const address = currentAddress();
  const route = parseRoute(address);
  const active = document.activeElement instanceof HTMLElement ? document.activeElement.id : '';
  let page: Awaited<ReturnType<typeof pageForRoute>>;
  try {
    page = await pageForRoute(route, source, mode);
  } catch (error) {
    if (ticket !== drawing) return;
    main.textContent = '';
    const heading = document.createElement('h1');
    heading.textContent = 'Could not load this page';
    const detail = document.createElement('p');
    detail.textContent = error instanceof Error ? error.message : String(error);
    main.append(heading, detail);
    return;
  }
  if (ticket !== drawing) return; // a later navigation won
  shown = route;
  drawnAddress = address;
  document.title = `${page.title} · HoloDeck`;
  crumbs.innerHTML = renderCrumbs(page.crumbs, mode).value;
  main.innerHTML = page.body.value;
  if (focus === 'heading') main.querySelector<HTMLElement>('h1')?.focus();
  else if (active) document.getElementById(active)?.focus();
  if (document.documentElement.dataset.ready !== 'true') performance.mark('holodeck-ready'); // bench/view-report.mjs
  document.documentElement.dataset.ready = 'true';
}

function navigate(href: string): void {
  if (mode === 'static') {
    location.hash = href.replace(/^#/, '');
    return;
  }
  history.pushState(null, '', href);
  void draw('heading');
}

/** Rewrites the address for a new table query without a new history entry, and redraws the table. */
async function applyQuery(query: CaseQuery, focusSelector?: string): Promise<void> {
  if (shown.page !== 'run') return;
  const route: PageRoute = { ...shown, query };
  history.replaceState(null, '', routeHref(route, mode));
  shown = route;
  const payload = await source.run(route.runId);
  const table = document.getElementById('case-table');
  if (!payload.found || !table) return;
  table.outerHTML = renderCaseTable(payload.value.run, query, mode).value;
  if (focusSelector) document.querySelector<HTMLElement>(focusSelector)?.focus();
}

function readFilters(): CaseQuery | undefined {
  if (shown.page !== 'run') return undefined;
  const value = (id: string) => {
    const field = document.getElementById(id);
    return field instanceof HTMLInputElement || field instanceof HTMLSelectElement ? field.value : '';
  };
  const columns = document.getElementById('filter-metrics');
  const parsed = parseRoute(
    `/runs/x?${new URLSearchParams({ status: value('filter-status'), tag: value('filter-tag'), q: value('filter-text') })}`,
  );
  if (parsed.page !== 'run') return undefined;
  return {
    ...shown.query,
    status: parsed.query.status,
    tag: parsed.query.tag,
    text: parsed.query.text,
    metricColumns: columns instanceof HTMLInputElement && columns.checked,
  };
}

document.addEventListener('click', (event) => {
  if (!(event.target instanceof Element)) return;
  const link = event.target.closest('a');
  if (link?.getAttribute('href') === '#main') {
    // The skip link: focus the content without touching the address (in a report file the
    // fragment is the page).
    event.preventDefault();
    main.focus();
    return;
  }
  if (
    link &&
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.ctrlKey &&
    !event.shiftKey
  ) {
    const href = link.getAttribute('href') ?? '';
    if ((mode === 'static' && href.startsWith('#/')) || (mode === 'served' && href.startsWith('/'))) {
      event.preventDefault();
      navigate(href);
      return;
    }
  }
  const sort = event.target.closest<HTMLElement>('[data-sort]');
  if (sort && shown.page === 'run') {
    const key = sort.dataset.sort;
    const parsed = parseRoute(`/runs/x?sort=${key ?? ''}`);
    if (parsed.page !== 'run') return;
    const same = shown.query.sort === parsed.query.sort;
    void applyQuery(
      { ...shown.query, sort: parsed.query.sort, descending: same ? !shown.query.descending : false },
      `[data-sort="${parsed.query.sort}"]`,
    );
    return;
  }
  const jump = event.target.closest<HTMLElement>('[data-focus]');
  if (jump?.dataset.focus) {
    const target = document.getElementById(jump.dataset.focus);
    target?.scrollIntoView();
    target?.focus();
  }
});

document.addEventListener('input', (event) => {
  if (event.target instanceof Element && event.target.closest('[data-filter]')) {
    const query = readFilters();
    if (query) void applyQuery(query);
  }
});

document.addEventListener('submit', (event) => {
  if (!(event.target instanceof HTMLFormElement)) return;
  event.preventDefault();
  if (event.target.matches('[data-label-form]')) {
    void submitLabel(event.target);
    return;
  }
  if (!event.target.matches('[data-compare-form]')) return;
  const value = (id: string) => {
    const field = document.getElementById(id);
    return field instanceof HTMLSelectElement ? field.value : '';
  };
  navigate(
    routeHref(
      { page: 'compare', currentId: value('compare-current'), baselineId: value('compare-baseline') },
      mode,
    ),
  );
});

/**
 * j / k: the next / previous case. On a case page they follow its next and previous links; on a
 * run page they move the focus down and up the table's case links. Not while typing in a field.
 */
document.addEventListener('keydown', (event) => {
  if (event.key !== 'j' && event.key !== 'k') return;
  if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
  const target = event.target;
  if (
    target instanceof HTMLElement &&
    (target.isContentEditable || target.closest('input, textarea, select'))
  )
    return;
  const step = document.querySelector<HTMLAnchorElement>(`a[data-key="${event.key}"]`);
  if (step) {
    event.preventDefault();
    step.click();
    return;
  }
  const links = [...document.querySelectorAll<HTMLAnchorElement>('#case-table tbody th a')];
  if (!links.length) return;
  event.preventDefault();
  const active = document.activeElement;
  const current = active instanceof HTMLAnchorElement ? links.indexOf(active) : -1;
  const next =
    current === -1 ? 0 : Math.min(links.length - 1, Math.max(0, current + (event.key === 'j' ? 1 : -1)));
  links[next]?.focus();
});

window.addEventListener(mode === 'static' ? 'hashchange' : 'popstate', () => {
  if (currentAddress() !== drawnAddress) void draw('heading');
});

/**
 * Served: the server pushes the ids of runs whose files changed; the page on show redraws. One
 * stream per browser, relayed to the other tabs (leader-tab-events.ts), so any number of tabs load.
 */
function followChanges(server: ServedSource): void {
  followLeaderTabEvents({
    url: '/api/events',
    name: 'holodeck-view-events',
    events: ['runs-changed'],
    onEvent: (_type, data) => {
      let ids: unknown;
      try {
        ids = JSON.parse(data);
      } catch {
        return;
      }
      if (!Array.isArray(ids)) return;
      const changed = ids.filter((id): id is string => typeof id === 'string');
      for (const id of changed) server.forget(id);
      const route = shown;
      const affected =
        route.page === 'runs' ||
        (route.page === 'compare' && (changed.includes(route.currentId) || route.baselineId === null)) ||
        ((route.page === 'run' || route.page === 'case') && changed.includes(route.runId));
      if (affected) void draw('keep');
    },
    onResync: () => {
      server.forgetAll();
      void draw('keep');
    },
  });
}

void draw('keep');
if (served) followChanges(served);
