import type { ComparePayload, Found, RunPayload, ViewDataSource } from '../pages/view-data-source.js';
import type { ViewRunList } from '../view-data.js';
import type { ViewLabelling } from '../view-labelling.js';
import type { ViewOptimization } from '../view-optimization.js';

async function getJson<T>(url: string): Promise<Found<T>> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (response.status === 404) {
    const body: unknown = await response.json().catch(() => ({}));
    const message =
      typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string'
        ? body.error
        : `Nothing at ${url}.`;
    return { found: false, message };
  }
  if (!response.ok) throw new Error(`${url} answered ${response.status} ${response.statusText}`);
  // Our own server's JSON, built from runs it validated: trusted like the page itself.
  return { found: true, value: (await response.json()) as T };
}

/** Data from the view server's /api/, each run cached until the server says it changed. */
export class ServedSource implements ViewDataSource {
  private readonly runs = new Map<string, Promise<Found<RunPayload>>>();

  async runList(): Promise<ViewRunList> {
    const answer = await getJson<ViewRunList>('/api/runs');
    if (!answer.found) throw new Error(answer.message);
    return answer.value;
  }

  run(runId: string): Promise<Found<RunPayload>> {
    let cached = this.runs.get(runId);
    if (!cached) {
      cached = getJson<RunPayload>(`/api/runs/${encodeURIComponent(runId)}`);
      cached.catch(() => this.runs.delete(runId));
      this.runs.set(runId, cached);
    }
    return cached;
  }

  compare(currentId: string, baselineId: string | null): Promise<Found<ComparePayload>> {
    const tail = baselineId ? `/${encodeURIComponent(baselineId)}` : '';
    return getJson<ComparePayload>(`/api/compare/${encodeURIComponent(currentId)}${tail}`);
  }

  optimization(optimizeId: string): Promise<Found<ViewOptimization>> {
    return getJson<ViewOptimization>(`/api/optimizations/${encodeURIComponent(optimizeId)}`);
  }

  async labelling(): Promise<ViewLabelling> {
    const answer = await getJson<ViewLabelling>('/api/labelling');
    return answer.found ? answer.value : { writable: false };
  }

  /** Forgets a run, so the next page asks the server again. */
  forget(runId: string): void {
    this.runs.delete(runId);
  }

  /** Forgets every run (events may have been missed). */
  forgetAll(): void {
    this.runs.clear();
  }
}
