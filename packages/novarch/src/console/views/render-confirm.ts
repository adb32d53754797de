import { html, type Markup } from './markup.js';

/**
 * The confirmation step of a form whose action cannot be taken back (approve, deny, refuse and
 * stop, kill). The client script fills in the sentence and the confirm button's label and shows
 * it, so no single key or click decides anything.
 */
export function confirmBox(): Markup {
  return html`<div class="confirm" role="alertdialog" aria-label="Confirm the decision" hidden>
<p class="confirm-text"></p>
<button type="button" class="confirm-yes"></button> <button type="button" class="confirm-no">Cancel <kbd>Esc</kbd></button>
</div>`;
}
