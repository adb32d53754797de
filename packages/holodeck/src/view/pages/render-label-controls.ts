import type { ViewCase, ViewRun } from '../view-data.js';
import type { ViewLabelling } from '../view-labelling.js';
import { html, type SafeHtml } from './html.js';

/** The metrics of a case's attempts (and their turns), in order, each once. */
function metricNames(testCase: ViewCase): string[] {
  const names = testCase.attempts.flatMap((attempt) => [
    ...attempt.metrics.map((metric) => metric.name),
    ...(attempt.turns ?? []).flatMap((turn) => turn.metrics.map((metric) => metric.name)),
  ]);
  return [...new Set(names)];
}

/**
 * A pass/fail + comment form for each calibrated judge metric of the case (the viewer was started
 * with --writable): it appends a human label to the metric's `calibration:` labels file. The
 * client (client/label-form.ts) posts it with the CSRF token the form carries.
 */
export function renderLabelControls(run: ViewRun, testCase: ViewCase, labelling: ViewLabelling): SafeHtml {
  if (!labelling.writable) return html``;
  const calibrated = metricNames(testCase).filter((name) => labelling.metrics.includes(name));
  if (!calibrated.length) return html``;
  return html`<section class="labels" aria-labelledby="labels-title">
    <h2 id="labels-title">Label for judge calibration</h2>
    <p class="muted small">Your verdict on this answer (its first attempt) becomes a labelled example in the judge's calibration file; <code>holodeck judge calibrate</code> measures the judge against it.</p>
    ${calibrated.map(
      (
        metric,
        index,
      ) => html`<form class="label-form" data-label-form data-run="${run.run_id}" data-case="${testCase.name}" data-metric="${metric}" data-token="${labelling.token}">
      <fieldset><legend>Judge "${metric}": should this answer pass?</legend>
        <label><input type="radio" name="label" value="pass" id="label-${index}-pass" required> pass</label>
        <label><input type="radio" name="label" value="fail" id="label-${index}-fail"> fail</label>
      </fieldset>
      <label for="label-${index}-comment">Comment (optional)</label>
      <textarea id="label-${index}-comment" name="comment" rows="2" maxlength="4000"></textarea>
      <button type="submit">Save label</button>
      <p class="label-status" role="status"></p>
    </form>`,
    )}
  </section>`;
}
