/**
 * The script of the built-in page, served as /page.js (the CSP allows only same-origin scripts).
 * Model and tool text only ever reaches the page through textContent: it is data, never HTML.
 */
export const PAGE_SCRIPT = String.raw`'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const log = $('log');
  const form = $('ask');
  const input = $('message');
  const keyInput = $('key');
  let sessionId;
  keyInput.value = sessionStorage.getItem('holodeck-serve-key') || '';
  const headers = (extra) => {
    const key = keyInput.value.trim();
    if (key) sessionStorage.setItem('holodeck-serve-key', key);
    return Object.assign({ 'content-type': 'application/json' }, key ? { authorization: 'Bearer ' + key } : {}, extra || {});
  };
  const line = (kind, text) => {
    const item = document.createElement('div');
    item.className = 'entry ' + kind;
    item.textContent = text;
    log.append(item);
    item.scrollIntoView({ block: 'end' });
    return item;
  };
  const problem = async (response) => {
    try {
      const body = await response.json();
      return body.detail || response.statusText;
    } catch {
      return response.statusText;
    }
  };
  async function stream(url, body) {
    const response = await fetch(url, { method: 'POST', headers: headers({ accept: 'text/event-stream' }), body: JSON.stringify(body) });
    if (!response.ok) {
      line('error', 'error ' + response.status + ': ' + (await problem(response)));
      return;
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let answer;
    const tools = new Map();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
        if (!data) continue;
        const event = JSON.parse(data);
        if (event.type === 'text-delta') {
          if (!answer) answer = line('agent', '');
          answer.textContent += event.text;
        } else if (event.type === 'tool-call') {
          answer = undefined;
          tools.set(event.callId, line('tool', '⚙ ' + event.name + ' ' + JSON.stringify(event.arguments)));
        } else if (event.type === 'tool-result') {
          const item = tools.get(event.callId) || line('tool', '⚙ ' + event.name);
          item.textContent += event.isError ? ' ✗ ' + event.result : ' ✓';
          item.classList.add(event.isError ? 'failed' : 'done');
        } else if (event.type === 'approval-request') {
          askApproval(event.approval);
        } else if (event.type === 'hold-pending') {
          line('hold', '⏸ ' + event.hold.toolName + ' is held for a Novarch operator (rules ' + event.hold.ruleIds.join(', ') + '): ' + event.hold.rationale);
          void stream('/v1/sessions/' + encodeURIComponent(sessionId) + '/continue', {});
        } else if (event.type === 'hold-resolved') {
          line('hold', 'hold ' + event.status + (event.decidedBy ? ' by ' + event.decidedBy : '') + (event.rationale ? ': ' + event.rationale : ''));
        } else if (event.type === 'error') {
          line('error', event.message);
        } else if (event.type === 'finish') {
          if (event.isError) line('error', 'the run failed: ' + (event.errorReason || 'unknown reason'));
          form.dataset.busy = 'false';
        }
      }
    }
  }
  function askApproval(approval) {
    const box = line('approval', approval.toolName + ' needs your approval (' + approval.reason + '): ' + JSON.stringify(approval.arguments) + ' ');
    for (const [label, decision] of [['Allow', 'allow'], ['Deny', 'deny']]) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = label;
      button.dataset.decision = decision;
      button.addEventListener('click', () => {
        for (const other of box.querySelectorAll('button')) other.disabled = true;
        const body = decision === 'allow' ? { decision } : { decision, reason: 'denied in the page' };
        void stream('/v1/sessions/' + encodeURIComponent(sessionId) + '/approvals/' + encodeURIComponent(approval.callId), body);
      });
      box.append(button);
    }
  }
  form.addEventListener('submit', async (submitted) => {
    submitted.preventDefault();
    const message = input.value.trim();
    if (!message || form.dataset.busy === 'true') return;
    form.dataset.busy = 'true';
    if (!sessionId) {
      const created = await fetch('/v1/sessions', { method: 'POST', headers: headers(), body: '{}' });
      if (!created.ok) {
        line('error', 'error ' + created.status + ': ' + (await problem(created)));
        form.dataset.busy = 'false';
        return;
      }
      sessionId = (await created.json()).id;
    }
    line('user', message);
    input.value = '';
    await stream('/v1/sessions/' + encodeURIComponent(sessionId) + '/messages', { message });
  });
  document.documentElement.dataset.ready = 'true';
})();
`;
