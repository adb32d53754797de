// Posts a case page's labelling form (pages/render-label-controls.ts) to the view server, with
// the CSRF token the form carries, and says in its status line what was written or why not.

/** The header the server checks the token in (view-label-routes.ts's CSRF_HEADER). */
const CSRF_HEADER = 'x-holodeck-csrf';

function errorOf(body: unknown, status: number): string {
  return typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string'
    ? body.error
    : `The server answered ${status}.`;
}

/** Sends one label; the status line (role=status) is announced to screen readers. */
export async function submitLabel(form: HTMLFormElement): Promise<void> {
  const status = form.querySelector<HTMLElement>('[role="status"]');
  const data = new FormData(form);
  const label = data.get('label');
  const comment = data.get('comment');
  const { run = '', case: caseName = '', metric = '', token = '' } = form.dataset;
  const say = (text: string) => {
    if (status) status.textContent = text;
  };
  if (label !== 'pass' && label !== 'fail') {
    say('Choose pass or fail first.');
    return;
  }
  say('Saving…');
  try {
    const response = await fetch(
      `/api/runs/${encodeURIComponent(run)}/cases/${encodeURIComponent(caseName)}/labels`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', [CSRF_HEADER]: token },
        body: JSON.stringify({
          metric,
          label,
          ...(typeof comment === 'string' && comment.trim() ? { comment } : {}),
        }),
      },
    );
    const body: unknown = await response.json().catch(() => ({}));
    if (!response.ok) {
      say(errorOf(body, response.status));
      return;
    }
    const file =
      typeof body === 'object' && body !== null && 'file' in body && typeof body.file === 'string'
        ? body.file
        : 'its labels file';
    say(`Labelled ${label} for judge "${metric}" in ${file}.`);
  } catch (error) {
    say(`Could not save the label: ${error instanceof Error ? error.message : String(error)}`);
  }
}
