// The pages and their addresses. Served, a page is a path (`/runs/<id>`); in a static report
// file it is the fragment (`#/runs/<id>`), since a file has no server to ask.

/** How the run page's table is filtered and sorted (kept in the address, so back/forward keep it). */
export interface CaseQuery {
  status: CaseFilterStatus;
  tag: string;
  text: string;
  sort: CaseSortKey;
  descending: boolean;
  /** One column per metric in the run table. */
  metricColumns: boolean;
}

export const CASE_FILTER_STATUSES = ['all', 'passed', 'failed', 'errored', 'flaky', 'interrupted'] as const;
export type CaseFilterStatus = (typeof CASE_FILTER_STATUSES)[number];
export const CASE_SORT_KEYS = ['suite', 'name', 'status', 'score', 'attempts', 'duration', 'cost'] as const;
export type CaseSortKey = (typeof CASE_SORT_KEYS)[number];

export type PageRoute =
  | { page: 'runs' }
  | { page: 'run'; runId: string; query: CaseQuery }
  | { page: 'case'; runId: string; caseName: string }
  | { page: 'compare'; currentId: string; baselineId: string | null }
  | { page: 'optimization'; optimizeId: string }
  | { page: 'not-found' };

/** Served pages are paths; a static report file's pages are fragments. */
export type PageMode = 'served' | 'static';

export const DEFAULT_CASE_QUERY: CaseQuery = {
  status: 'all',
  tag: '',
  text: '',
  // Failures first: what a reader of a run looks for.
  sort: 'status',
  descending: false,
  metricColumns: false,
};

function oneOf<T extends string>(values: readonly T[], value: string | null, fallback: T): T {
  return values.find((candidate) => candidate === value) ?? fallback;
}

function decode(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/** The page at a path with its query (`/runs/x?status=failed`), or not-found. */
export function parseRoute(address: string): PageRoute {
  const [pathPart = '', search = ''] = address.split('?', 2);
  const parts = pathPart.split('/').filter((part) => part !== '');
  const decoded = parts.map(decode);
  if (decoded.some((part) => part === undefined)) return { page: 'not-found' };
  const [first, second, third, fourth, ...rest] = decoded as string[];
  const params = new URLSearchParams(search);
  if (first === undefined) return { page: 'runs' };
  if (first === 'runs' && second !== undefined && third === undefined) {
    return {
      page: 'run',
      runId: second,
      query: {
        status: oneOf(CASE_FILTER_STATUSES, params.get('status'), 'all'),
        tag: params.get('tag') ?? '',
        text: params.get('q') ?? '',
        sort: oneOf(CASE_SORT_KEYS, params.get('sort'), DEFAULT_CASE_QUERY.sort),
        descending: params.get('dir') === 'desc',
        metricColumns: params.get('columns') === 'metrics',
      },
    };
  }
  if (first === 'runs' && second !== undefined && third === 'cases' && fourth !== undefined && !rest.length)
    return { page: 'case', runId: second, caseName: fourth };
  if (first === 'optimizations' && second !== undefined && third === undefined)
    return { page: 'optimization', optimizeId: second };
  if (first === 'compare' && second !== undefined && fourth === undefined)
    return { page: 'compare', currentId: second, baselineId: third ?? null };
  return { page: 'not-found' };
}

function queryString(query: CaseQuery): string {
  const params = new URLSearchParams();
  if (query.status !== 'all') params.set('status', query.status);
  if (query.tag) params.set('tag', query.tag);
  if (query.text) params.set('q', query.text);
  if (query.sort !== DEFAULT_CASE_QUERY.sort) params.set('sort', query.sort);
  if (query.descending) params.set('dir', 'desc');
  if (query.metricColumns) params.set('columns', 'metrics');
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The path of a page (`/runs/<id>/cases/<name>`), its parts percent-encoded. */
export function routePath(route: PageRoute): string {
  const part = encodeURIComponent;
  switch (route.page) {
    case 'runs':
      return '/';
    case 'run':
      return `/runs/${part(route.runId)}${queryString(route.query)}`;
    case 'case':
      return `/runs/${part(route.runId)}/cases/${part(route.caseName)}`;
    case 'compare':
      return `/compare/${part(route.currentId)}${route.baselineId ? `/${part(route.baselineId)}` : ''}`;
    case 'optimization':
      return `/optimizations/${part(route.optimizeId)}`;
    case 'not-found':
      return '/not-found';
  }
}

/** The link to a page in a mode: the path, or `#` and the path in a static file. */
export function routeHref(route: PageRoute, mode: PageMode): string {
  return mode === 'static' ? `#${routePath(route)}` : routePath(route);
}
