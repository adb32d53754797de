import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chatReply, reply, toolUse, waitUntil } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from '../both-backends/backend-variants.js';
import type { E2eAgent } from '../support/e2e-agent.js';
import { claudeProcesses, isRunning } from '../support/process-tree.js';
import { postJson, readSse, type ServeProcess, startServe } from './serve-harness.js';

// `holodeck serve` through its REST API, as a child process, on both backends against the fake
// model servers: sessions across turns, streaming, approvals, limits, bad input, disconnects.

const NOTES = `
import { appendFileSync } from 'node:fs';
export const saveNote = ({ text }) => {
  appendFileSync(new URL('./notes.log', import.meta.url), text + '\\n');
  return 'saved';
};
`;
const SAVE_NOTE = {
  type: 'function',
  name: 'save_note',
  description: 'Saves a note',
  file: 'notes.mjs',
  function: 'saveNote',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};
const LIMITS = { max_sessions: 3, max_message_chars: 200, max_body_bytes: 2048 };

describe.each(backendVariants())('holodeck serve: REST ($name backend)', (variant) => {
  let server: ServeProcess;
  let agent: E2eAgent;
  beforeAll(async () => {
    await variant.start();
    // The tool that needs approval on this backend: Claude's Write under permission_mode manual,
    // any tool call on the AI SDK backend (every call of an asking session).
    agent =
      variant.name === 'claude'
        ? variant.agent({ claude: { working_directory: '.', file_system: { write: true } }, serve: LIMITS })
        : variant.agent({ tools: [SAVE_NOTE], serve: LIMITS }, { 'notes.mjs': NOTES });
    server = await startServe(agent);
  });
  afterAll(async () => {
    await server?.stop();
    await variant.close();
  });
  // Claude's Write refuses to overwrite a file it has not read: a new file each time.
  let written = 0;
  const callApprovalTool = (text: string) =>
    variant.name === 'claude'
      ? toolUse('Write', { file_path: `notes-${++written}.log`, content: text })
      : variant.callTool('save_note', { text });
  const slowReply = (text: string, delayMs: number) =>
    variant.name === 'claude' ? reply(text, { delayMs }) : chatReply(text, { delayMs });

  const createSession = async () => {
    const response = await postJson(`${server.url}/v1/sessions`, {});
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const deleteSession = (id: string) => fetch(`${server.url}/v1/sessions/${id}`, { method: 'DELETE' });

  it('keeps one conversation across turns, answering as JSON', async () => {
    variant.script(variant.reply('Paris.'), variant.reply('About 2.1 million.'));
    const id = await createSession();
    expect(id.startsWith(`${id.split('.')[0]}.`)).toBe(true);
    const first = await postJson(`${server.url}/v1/sessions/${id}/messages`, {
      message: 'Capital of France?',
    });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ sessionId: id, status: 'completed', response: 'Paris.' });
    const second = await postJson(`${server.url}/v1/sessions/${id}/messages`, { message: 'Its population?' });
    expect(await second.json()).toMatchObject({ status: 'completed', response: 'About 2.1 million.' });
    const sent = variant.requests();
    expect(sent.at(-1)?.lastUserText).toBe('Its population?');
    // The second request carried the first turn: the same backend session.
    expect(sent.at(-1)?.conversation).toContain('Capital of France?');
    expect(sent.at(-1)?.conversation).toContain('Paris.');
    variant.checkAndReset();
    expect((await deleteSession(id)).status).toBe(204);
    expect((await postJson(`${server.url}/v1/sessions/${id}/messages`, { message: 'again' })).status).toBe(
      404,
    );
  });

  it('streams a turn that waits for approval, and continues it when the caller allows the call', async () => {
    variant.script(callApprovalTool('remember milk'), variant.reply('Saved your note.'));
    const id = await createSession();
    const response = await postJson(
      `${server.url}/v1/sessions/${id}/messages`,
      { message: 'Note: remember milk' },
      undefined,
      { accept: 'text/event-stream' },
    );
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = await readSse(response);
    const last = events.at(-1);
    expect(last?.event).toBe('approval-request');
    const approval = (last?.data as { approval: { callId: string; toolName: string } } | undefined)
      ?.approval ?? { callId: '', toolName: '' };
    expect(approval.toolName).toMatch(variant.name === 'claude' ? /^Write$/ : /save_note/);
    const state = await (await fetch(`${server.url}/v1/sessions/${id}`)).json();
    expect(state).toMatchObject({
      state: 'requires_action',
      pendingApprovals: [{ callId: approval.callId }],
    });
    // A second message while the turn waits: 409.
    const busy = await postJson(`${server.url}/v1/sessions/${id}/messages`, { message: 'hello?' });
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as { detail: string }).detail).toContain('waiting for an answer');
    const rest = await readSse(
      await postJson(
        `${server.url}/v1/sessions/${id}/approvals/${approval.callId}`,
        { decision: 'allow' },
        undefined,
        {
          accept: 'text/event-stream',
        },
      ),
    );
    const types = rest.map((event) => event.event);
    expect(types).toContain('tool-result');
    expect(types.at(-1)).toBe('finish');
    expect(rest.at(-1)?.data).toMatchObject({ response: 'Saved your note.', isError: false });
    const notes = variant.name === 'claude' ? `notes-${written}.log` : 'notes.log';
    expect(readFileSync(path.join(agent.directory, notes), 'utf8')).toContain('remember milk');
    variant.checkAndReset();
    await deleteSession(id);
  });

  it('sends a denial reason to the model as the tool result', async () => {
    variant.script(callApprovalTool('secret'), variant.reply('Understood, not saved.'));
    const id = await createSession();
    const first = (await (
      await postJson(`${server.url}/v1/sessions/${id}/messages`, { message: 'Save secret' })
    ).json()) as {
      status: string;
      pendingApprovals: { callId: string }[];
    };
    expect(first.status).toBe('requires_action');
    const callId = first.pendingApprovals[0]?.callId ?? '';
    const answered = await postJson(`${server.url}/v1/sessions/${id}/approvals/${callId}`, {
      decision: 'deny',
      reason: 'no secrets in notes',
    });
    expect(await answered.json()).toMatchObject({ status: 'completed', response: 'Understood, not saved.' });
    expect(
      variant
        .requests()
        .at(-1)
        ?.toolResults.map((result) => result.text)
        .join(' '),
    ).toContain('no secrets in notes');
    const again = await postJson(`${server.url}/v1/sessions/${id}/approvals/${callId}`, {
      decision: 'allow',
    });
    expect(again.status).toBe(409);
    variant.checkAndReset();
    await deleteSession(id);
  });

  it('answers every bad input with a problem+json that says what to fix, never a stack trace', async () => {
    const id = await createSession();
    const messages = `${server.url}/v1/sessions/${id}/messages`;
    const cases: { response: Response; status: number; detail: string | RegExp }[] = [
      {
        response: await postJson(messages, '{"message": '),
        status: 400,
        detail: /^the body is not valid JSON \(.*\): send one JSON object$/,
      },
      {
        response: await fetch(messages, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: 'hi',
        }),
        status: 415,
        detail: 'the body must be JSON: send Content-Type: application/json (got text/plain)',
      },
      {
        response: await postJson(messages, { message: '' }),
        status: 400,
        detail: 'body.message: must not be empty',
      },
      {
        response: await postJson(messages, { text: 'hi' }),
        status: 400,
        detail: /body\.message: .*; body: unknown key "text"/,
      },
      {
        response: await postJson(messages, { message: 'x'.repeat(201) }),
        status: 413,
        detail:
          'body.message: the message is 201 characters long, longer than the 200 this server accepts (serve.max_message_chars)',
      },
      {
        response: await postJson(messages, { message: 'x'.repeat(3000) }),
        status: 413,
        detail:
          'the request body is larger than the 2048 bytes this server accepts (serve.max_body_bytes): send a shorter message',
      },
      {
        response: await postJson(`${server.url}/v1/sessions/${id.split('.')[0]}.0000/messages`, {
          message: 'hi',
        }),
        status: 404,
        detail: /^no session ".*\.0000" for this API key: it never existed, ended/,
      },
      {
        response: await postJson(`${server.url}/v1/sessions/elsewhere.abc/messages`, { message: 'hi' }),
        status: 421,
        detail: /^session "elsewhere\.abc" is held by instance "elsewhere", not this one/,
      },
      {
        response: await fetch(`${server.url}/v1/nothing`),
        status: 404,
        detail: 'no such route: the routes are listed in /openapi.json',
      },
    ];
    for (const { response, status, detail } of cases) {
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      const problem = (await response.json()) as { detail: string; status: number };
      expect(problem.status).toBe(status);
      if (typeof detail === 'string') expect(problem.detail).toBe(detail);
      else expect(problem.detail).toMatch(detail);
      expect(JSON.stringify(problem)).not.toMatch(/\n\s+at |\.ts:\d+|\.js:\d+/);
    }
    await deleteSession(id);
  });

  it('caps live sessions with 429 and Retry-After, and frees a place when one ends', async () => {
    const ids = [await createSession(), await createSession(), await createSession()];
    const over = await postJson(`${server.url}/v1/sessions`, {});
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('5');
    expect(((await over.json()) as { detail: string }).detail).toBe(
      '3 sessions are live, the most this server holds (serve.max_sessions): end one (DELETE /v1/sessions/{id}) or retry later',
    );
    await deleteSession(ids[0] ?? '');
    const freed = await createSession();
    for (const id of [...ids.slice(1), freed]) await deleteSession(id);
  });

  it('interrupts the turn when the client goes away mid-stream; the session goes on', async () => {
    variant.script(slowReply('too late', 8_000), variant.reply('Next answer.'));
    const id = await createSession();
    const controller = new AbortController();
    const response = await postJson(
      `${server.url}/v1/sessions/${id}/messages`,
      { message: 'slow one' },
      undefined,
      {
        accept: 'text/event-stream',
      },
    );
    const reader = response.body?.getReader();
    // Wait until the model has the request, then hang up.
    await waitUntil(() => variant.requests().some((request) => request.lastUserText === 'slow one'), {
      timeoutMs: 15_000,
      what: 'the slow request to reach the fake model',
    });
    await reader?.cancel();
    controller.abort();
    await waitUntil(
      async () =>
        ((await (await fetch(`${server.url}/v1/sessions/${id}`)).json()) as { state: string }).state ===
        'idle',
      { timeoutMs: 30_000, what: 'the session to be idle after the client went away', intervalMs: 100 },
    );
    const next = await postJson(`${server.url}/v1/sessions/${id}/messages`, { message: 'and now?' });
    expect(await next.json()).toMatchObject({ status: 'completed', response: 'Next answer.' });
    // Interrupted, not waited out: the delayed answer never became part of the conversation.
    expect(variant.requests().at(-1)?.conversation).toContain('slow one');
    expect(variant.requests().at(-1)?.conversation).not.toContain('too late');
    variant.discardScript();
    await deleteSession(id);
  });

  it('lists every route in /openapi.json, and answers /health and /ready', async () => {
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${server.url}/ready`)).json()).toMatchObject({ ready: true });
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(document.openapi).toBe('3.1.0');
    expect(document.paths['/v1/sessions/{sessionId}/messages']?.post?.operationId).toBe('sendMessage');
    expect(document.paths['/v1/sessions/{sessionId}/approvals/{callId}']?.post?.operationId).toBe(
      'answerApproval',
    );
    // The request log: one JSON line per request, without message text.
    const lines = server.logLines();
    const turn = lines.find(
      (line) => line.route === '/v1/sessions/{sessionId}/messages' && line.status === 200,
    );
    expect(turn).toMatchObject({ method: 'POST', status: 200, session: expect.stringContaining('.') });
    expect(turn?.tokens).toBeGreaterThan(0);
    expect(typeof turn?.durationMs).toBe('number');
    // A stream is logged once, when it ends, with the turn's usage.
    const streamed = lines.filter((line) => line.stream === true && line.status === 200);
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed.some((line) => typeof line.tokens === 'number')).toBe(true);
    expect(JSON.stringify(lines)).not.toContain('Capital of France?');
  });

  it('on SIGTERM mid-turn: /ready turns false, the turn is interrupted after --drain-timeout, every agent process ends, exit 0', async () => {
    const draining = await startServe(agent, ['--drain-timeout', '1']);
    variant.script(slowReply('never delivered', 20_000));
    const id = ((await (await postJson(`${draining.url}/v1/sessions`, {})).json()) as { id: string }).id;
    const streaming = postJson(
      `${draining.url}/v1/sessions/${id}/messages`,
      { message: 'long task' },
      undefined,
      {
        accept: 'text/event-stream',
      },
    ).then(readSse);
    await waitUntil(() => variant.requests().some((request) => request.lastUserText === 'long task'), {
      timeoutMs: 15_000,
      what: 'the long task to reach the fake model',
    });
    const agentProcesses = claudeProcesses(draining.child.pid ?? 0).map((process) => process.pid);
    if (variant.name === 'claude') expect(agentProcesses.length).toBeGreaterThan(0);
    const started = Date.now();
    draining.child.kill('SIGTERM');
    // /ready turns false (503) first; once the listener closed, nothing answers (0).
    let readyDuringDrain = 200;
    const readyBy = Date.now() + 5_000;
    while (readyDuringDrain === 200 && Date.now() < readyBy) {
      readyDuringDrain = await fetch(`${draining.url}/ready`)
        .then((response) => response.status)
        .catch(() => 0);
      if (readyDuringDrain === 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect([503, 0]).toContain(readyDuringDrain);
    expect(await draining.exited).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const events = await streaming;
    expect(events.at(-1)?.event).toBe('finish');
    expect(events.at(-1)?.data).toMatchObject({ isError: true });
    for (const pid of agentProcesses) expect(isRunning(pid)).toBe(false);
    expect(draining.stderr()).toContain('stopped: every session ended');
    variant.discardScript();
    expect(existsSync(agent.file)).toBe(true);
  });
});
