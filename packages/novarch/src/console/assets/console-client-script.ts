// The console's only script, served as /console/assets/console.js (script-src 'self'; no inline
// script anywhere). Plain ES2022 for the browser, kept as text here so it ships in dist/ with the
// rest of the package and needs no bundler; a unit test parses it, the Chromium tests run it.
// It only ever writes agent text with textContent; the one HTML it inserts is the server's own
// escaped hold card (from the `hold-added` event).
export const CONSOLE_CLIENT_SCRIPT = `'use strict';
(function () {
  var body = document.body;
  var page = body.dataset.page;
  var csrfMeta = document.querySelector('meta[name="csrf-token"]');
  var csrf = csrfMeta ? csrfMeta.getAttribute('content') : '';
  // The server's clock minus ours: countdowns count to the server's deadline.
  var skew = Number(body.dataset.serverNow || Date.now()) - Date.now();

  function formatLeft(ms) {
    var s = Math.ceil(ms / 1000);
    var m = Math.floor(s / 60);
    var r = s % 60;
    return (m > 0 ? m + ' min ' : '') + r + ' s left';
  }
  function tick() {
    var now = Date.now() + skew;
    document.querySelectorAll('[data-deadline]').forEach(function (el) {
      var left = Date.parse(el.dataset.deadline) - now;
      el.textContent = left > 0 ? formatLeft(left) : 'deadline passed';
      el.classList.toggle('urgent', left < 30000);
    });
  }
  tick();
  setInterval(tick, 1000);

  // An action that cannot be taken back is confirmed first: the form's .confirm box says what
  // will happen and takes a second, deliberate action. Approve and deny focus the confirm button
  // (a then Enter); refusing with a stop and killing focus "Cancel" (they have no key at all).
  function askConfirm(form, text, yesLabel, onYes, focusYes) {
    var box = form.querySelector('.confirm');
    if (!box) return;
    box.querySelector('.confirm-text').textContent = text;
    var yes = box.querySelector('.confirm-yes');
    var no = box.querySelector('.confirm-no');
    yes.textContent = yesLabel;
    box.hidden = false;
    function close() {
      box.hidden = true;
      yes.onclick = null;
      no.onclick = null;
    }
    yes.onclick = function () { close(); onYes(); };
    no.onclick = function () { close(); var card = form.closest('article.hold'); if (card) card.focus(); };
    (focusYes ? yes : no).focus();
  }
  function openConfirm() {
    return document.querySelector('.confirm:not([hidden])');
  }

  var killForm = document.querySelector('form.kill');
  if (killForm) {
    killForm.addEventListener('submit', function (event) {
      if (killForm.dataset.confirmed === '1') return;
      event.preventDefault();
      askConfirm(
        killForm,
        'Kill this session? The gate refuses every further call of the agent. This cannot be undone.',
        'Yes, kill the session',
        function () { killForm.dataset.confirmed = '1'; killForm.requestSubmit(); },
      );
    });
    document.addEventListener('keydown', function (event) {
      var box = openConfirm();
      if (event.key === 'Escape' && box) box.querySelector('.confirm-no').click();
    });
  }

  if (page !== 'triage' && page !== 'hold') return;

  var queue = document.getElementById('queue');
  var selected = -1;

  function cards() {
    return Array.prototype.slice.call(document.querySelectorAll('article.hold'));
  }
  function select(index) {
    var all = cards();
    if (all.length === 0) return;
    selected = Math.max(0, Math.min(all.length - 1, index));
    all.forEach(function (card, i) {
      card.classList.toggle('selected', i === selected);
      if (i === selected) card.setAttribute('aria-current', 'true');
      else card.removeAttribute('aria-current');
    });
    all[selected].focus({ preventScroll: true });
    all[selected].scrollIntoView({ block: 'nearest' });
  }
  function current() {
    return cards()[selected];
  }
  function updateCount() {
    var pending = cards().filter(function (card) { return !card.classList.contains('decided'); }).length;
    var count = document.getElementById('queue-count');
    if (count) count.textContent = String(pending);
    var empty = document.getElementById('queue-empty');
    if (empty) empty.hidden = cards().length > 0;
  }
  function setOutcome(card, text) {
    var outcome = card.querySelector('.outcome');
    if (outcome) outcome.textContent = text;
  }
  function markDecided(card, text) {
    card.classList.add('decided');
    card.querySelectorAll('form.decision button, form.decision textarea').forEach(function (el) { el.disabled = true; });
    var countdown = card.querySelector('[data-deadline]');
    if (countdown) {
      countdown.removeAttribute('data-deadline');
      countdown.textContent = 'decided';
    }
    setOutcome(card, text);
    updateCount();
    // The compact list opens the selected hold only: once it is decided, the next pending one opens.
    if (card === current()) openNextPending();
  }
  function openNextPending() {
    var all = cards();
    var start = Math.max(0, selected);
    for (var step = 1; step <= all.length; step++) {
      var index = (start + step) % all.length;
      if (!all[index].classList.contains('decided')) { select(index); return; }
    }
  }

  var CONFIRM = {
    approve: ['Approve this write? The agent\u2019s action runs and cannot be called back.', 'Yes, approve'],
    deny: ['Deny this write? It is refused and the agent is told your rationale.', 'Yes, deny'],
    skip: [
      'Refuse this write and stop the agent\u2019s session? The session can call no tool again. This cannot be undone.',
      'Yes, refuse and stop the session',
    ],
  };
  function decide(card, decision) {
    if (!card || card.classList.contains('decided')) return;
    var form = card.querySelector('form.decision');
    if (!form) return;
    var field = form.querySelector('textarea');
    var rationale = field ? field.value : '';
    if ((decision === 'deny' || decision === 'skip') && rationale.trim() === '') {
      setOutcome(
        card,
        decision === 'deny'
          ? 'A deny needs a rationale: the agent is told why. Type it, then deny again.'
          : 'Stopping the session needs a rationale. Type it, then click again.',
      );
      if (field) field.focus();
      return;
    }
    setOutcome(card, '');
    askConfirm(form, CONFIRM[decision][0], CONFIRM[decision][1], function () {
      send(card, form, decision, rationale);
    }, decision !== 'skip');
  }
  // A rationale being typed survives the console session expiring: each keystroke keeps it in
  // this tab's sessionStorage, under the hold's decision URL, until the hold is decided here.
  function draftKey(form) {
    return 'novarch-rationale:' + form.getAttribute('action');
  }
  function saveDraft(form, text) {
    try {
      if (text.trim() === '') window.sessionStorage.removeItem(draftKey(form));
      else window.sessionStorage.setItem(draftKey(form), text);
    } catch (e) {}
  }
  function dropDraft(form) {
    try { window.sessionStorage.removeItem(draftKey(form)); } catch (e) {}
  }
  function keepDrafts(root) {
    root.querySelectorAll('form.decision').forEach(function (form) {
      var field = form.querySelector('textarea');
      if (!field || field.dataset.draftKept) return;
      field.dataset.draftKept = '1';
      var kept = null;
      try { kept = window.sessionStorage.getItem(draftKey(form)); } catch (e) {}
      if (kept && field.value === '') {
        field.value = kept;
        var card = form.closest('article.hold');
        if (card) setOutcome(card, 'Your rationale was kept while you signed in again; nothing is decided yet.');
      }
      field.addEventListener('input', function () { saveDraft(form, field.value); });
    });
  }
  keepDrafts(document);
  new MutationObserver(function () { keepDrafts(document); }).observe(document.body, { childList: true, subtree: true });

  function send(card, form, decision, rationale) {
    var buttons = form.querySelectorAll('button');
    buttons.forEach(function (b) { b.disabled = true; });
    var data = new URLSearchParams();
    data.set('decision', decision);
    data.set('rationale', rationale);
    var edited = form.querySelector('textarea[name="input"]');
    if (decision === 'approve' && edited && edited.value.trim() !== '') data.set('input', edited.value);
    fetch(form.action, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'X-CSRF-Token': csrf, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: data.toString(),
    })
      .then(function (response) {
        return response.json().then(function (json) { return { status: response.status, json: json }; });
      })
      .then(function (result) {
        var json = result.json || {};
        if (json.hold) {
          dropDraft(form);
          markDecided(card, json.outcome === 'decided' ? json.text : json.message);
          if (json.outcome === 'decided') select(selected + 1);
          return;
        }
        if (result.status === 401) {
          // Signed out meanwhile: the rationale stays in this tab (see keepDrafts) and sign-in
          // returns to this page, where it is filled in again.
          saveDraft(form, rationale);
          window.location.assign('/console/sign-in?expired=1&next=' + encodeURIComponent(location.pathname + location.search));
          return;
        }
        buttons.forEach(function (b) { b.disabled = false; });
        setOutcome(card, json.detail || 'The decision failed (HTTP ' + result.status + ').');
      })
      .catch(function () {
        buttons.forEach(function (b) { b.disabled = false; });
        setOutcome(card, 'The decision could not be sent: is the server reachable? Nothing was changed.');
      });
  }

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains('decision')) return;
    event.preventDefault();
    var submitter = event.submitter;
    var card = form.closest('article.hold');
    selected = cards().indexOf(card);
    decide(card, submitter && submitter.value ? submitter.value : 'approve');
  });

  var help = document.getElementById('help');
  document.addEventListener('keydown', function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    var typing = target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement || target instanceof HTMLSelectElement;
    if (typing) {
      if (event.key === 'Escape') {
        target.blur();
        if (current()) current().focus();
      }
      return;
    }
    if (help && help.open && event.key !== '?') return;
    var box = openConfirm();
    if (box) {
      // While a confirmation is open only its buttons (Enter, Space, Tab) and Esc act.
      if (event.key === 'Escape') { box.querySelector('.confirm-no').click(); event.preventDefault(); }
      return;
    }
    var handled = true;
    switch (event.key) {
      case 'j': case 'ArrowDown': select(selected + 1); break;
      case 'k': case 'ArrowUp': select(selected - 1); break;
      case 'a': decide(current(), 'approve'); break;
      case 'd': decide(current(), 'deny'); break;
      case 'r': { var field = current() && current().querySelector('textarea'); if (field) field.focus(); break; }
      case 'e': { var details = current() && current().querySelector('details.evidence'); if (details) details.open = !details.open; break; }
      case '?':
        if (help) { if (help.open) help.close(); else help.showModal(); }
        break;
      default: handled = false;
    }
    if (handled) event.preventDefault();
  });

  if (cards().length > 0) select(0);
  if (!queue) return;
  // A click on a one-line hold of the compact list opens it (and selects it for the keys).
  queue.addEventListener('click', function (event) {
    var card = event.target instanceof Element ? event.target.closest('article.hold') : null;
    if (!card || card.classList.contains('selected')) return;
    if (event.target.closest('a')) return;
    select(cards().indexOf(card));
  });

  // One live stream per browser, not per tab (browsers allow 6 connections per host, so a 7th
  // tab's stream would never open). The tabs of one console session elect a leader with a Web
  // Lock; the leader alone holds the EventSource and relays every event to the other tabs over a
  // BroadcastChannel. When the leader closes, its lock is released and the next tab takes over
  // with a stream of its own. Without Web Locks or BroadcastChannel each tab has its own stream.
  var EVENTS = ['hold-added', 'hold-decided', 'hold-gone', 'signed-out'];
  var handlers = {};
  function on(name, handler) { handlers[name] = handler; }
  function dispatch(name, data) { if (handlers[name]) handlers[name](data); }
  var scope = 'novarch-console-events:' + csrf;
  var channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(scope) : null;
  function lead() {
    body.dataset.eventsRole = 'leader';
    var ids = cards().map(function (card) { return card.dataset.holdId; });
    var source = new EventSource('/console/events?shown=' + encodeURIComponent(ids.join(',')));
    EVENTS.forEach(function (name) {
      source.addEventListener(name, function (event) {
        var data = JSON.parse(event.data);
        if (name === 'signed-out') source.close();
        if (channel) channel.postMessage({ event: name, data: data });
        dispatch(name, data);
      });
    });
    // The lock is held as long as this tab lives.
    return new Promise(function () {});
  }
  if (channel && navigator.locks && typeof navigator.locks.request === 'function') {
    body.dataset.eventsRole = 'follower';
    channel.onmessage = function (message) {
      var relayed = message.data;
      if (relayed && EVENTS.indexOf(relayed.event) >= 0) dispatch(relayed.event, relayed.data);
    };
    navigator.locks.request(scope, lead);
  } else {
    lead();
  }

  function cardOf(id) {
    return cards().filter(function (card) { return card.dataset.holdId === id; })[0];
  }
  on('hold-added', function (data) {
    if (cardOf(data.id)) return;
    var template = document.createElement('template');
    template.innerHTML = data.html;
    queue.appendChild(template.content);
    updateCount();
    tick();
    if (selected < 0) select(0);
    else if (!current() || current().classList.contains('decided')) openNextPending();
  });
  on('hold-decided', function (data) {
    var card = cardOf(data.id);
    if (card && !card.classList.contains('decided')) markDecided(card, data.text);
  });
  on('hold-gone', function (data) {
    var card = cardOf(data.id);
    if (card && !card.classList.contains('decided')) markDecided(card, data.text);
  });
  on('signed-out', function () {
    window.location.assign('/console/sign-in?expired=1');
  });
})();
`;
