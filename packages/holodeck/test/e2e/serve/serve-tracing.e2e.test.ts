import {
  type OtlpReceiver,
  type OtlpSpan,
  otlpAttribute,
  startOtlpReceiver,
  toolUse,
  waitUntil,
} from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from '../both-backends/backend-variants.js';
import { postJson, readSse, startServe } from './serve-harness.js';

// `holodeck serve` exports a span per turn and, inside it, a span per tool call over OTLP/HTTP
// (JSON) when agent.yaml's observability asks for traces, to a loopback OTLP receiver here; and
// none by default.

const NOTES = `export const saveNote = () => 'saved';`;
const SAVE_NOTE = {
  type: 'function',
  name: 'save_note',
  description: 'Saves a note',
  file: 'notes.mjs',
  function: 'saveNote',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

const attribute = (span: OtlpSpan, key: string): unknown => otlpAttribute(span, key);

describe.each(backendVariants())('holodeck serve: OpenTelemetry spans ($name backend)', (variant) => {
  // The OTLP receiver shared by every test that exports telemetry (testkit).
  let receiver: OtlpReceiver;
  let receiverUrl: string;
  let spans: OtlpSpan[] = [];
  let contentTypes: string[] = [];
  beforeAll(async () => {
    await variant.start();
    receiver = await startOtlpReceiver();
    receiverUrl = receiver.url;
    spans = receiver.spans;
    contentTypes = receiver.contentTypes;
  });
  afterAll(async () => {
    await variant.close();
    await receiver.close();
  });

  it('a turn span with the session, and a tool span inside it; no message text without capture_content', async () => {
    const observability = {
      enabled: true,
      traces: {},
      exporters: { otlp: { endpoint: receiverUrl, protocol: 'http/json' } },
    };
    const agent =
      variant.name === 'claude'
        ? variant.agent({ observability, claude: { working_directory: '.', file_system: { write: true } } })
        : variant.agent({ observability, tools: [SAVE_NOTE] }, { 'notes.mjs': NOTES });
    const call =
      variant.name === 'claude'
        ? toolUse('Write', { file_path: 'traced.log', content: 'secret text' })
        : variant.callTool('save_note', { text: 'secret text' });
    variant.script(call, variant.reply('Saved.'));
    const server = await startServe(agent);
    try {
      expect(server.stderr()).toContain(
        `tracing: a span per turn and per tool call, to ${receiverUrl}/v1/traces`,
      );
      const created = await postJson(`${server.url}/v1/sessions`, {});
      const { id } = (await created.json()) as { id: string };
      const events = await readSse(
        await postJson(
          `${server.url}/v1/sessions/${id}/messages`,
          { message: 'Save secret text' },
          undefined,
          {
            accept: 'text/event-stream',
          },
        ),
      );
      const callId =
        (events.at(-1)?.data as { approval?: { callId: string } } | undefined)?.approval?.callId ?? '';
      expect(callId).not.toBe('');
      const rest = await readSse(
        await postJson(
          `${server.url}/v1/sessions/${id}/approvals/${callId}`,
          { decision: 'allow' },
          undefined,
          {
            accept: 'text/event-stream',
          },
        ),
      );
      expect(rest.at(-1)?.event).toBe('finish');
      const turn = await waitUntil(() => spans.find((span) => span.name === 'invoke_agent e2e-agent'), {
        timeoutMs: 20_000,
        what: 'the turn span at the OTLP receiver',
      });
      const tool = spans.find((span) => span.name.startsWith('execute_tool '));
      expect(tool?.name).toBe(variant.name === 'claude' ? 'execute_tool Write' : 'execute_tool save_note');
      expect(tool?.traceId).toBe(turn.traceId);
      expect(tool?.parentSpanId).toBe(turn.spanId);
      expect(attribute(turn, 'holodeck.session.id')).toBe(id);
      expect(attribute(turn, 'gen_ai.agent.name')).toBe('e2e-agent');
      expect(attribute(tool as OtlpSpan, 'gen_ai.tool.call.id')).toBe(callId);
      expect(Number(attribute(turn, 'gen_ai.usage.output_tokens'))).toBeGreaterThan(0);
      // capture_content is off: no message text in any exported span
      expect(JSON.stringify(spans)).not.toContain('secret text');
      expect(contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);
      variant.checkAndReset();
    } finally {
      await server.stop();
    }
  });

  it('exports nothing without observability traces (off by default), and no metrics either', async () => {
    const before = spans.length;
    const metricsBefore = receiver.metrics.length;
    variant.script(variant.reply('Hello.'));
    const server = await startServe(variant.agent(), [], { OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl });
    try {
      expect(server.stderr()).not.toContain('tracing:');
      expect(server.stderr()).not.toContain('metrics:');
      const { id } = (await (await postJson(`${server.url}/v1/sessions`, {})).json()) as { id: string };
      const answer = await postJson(`${server.url}/v1/sessions/${id}/messages`, { message: 'Hi' });
      expect(answer.status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(spans.length).toBe(before);
    expect(receiver.metrics.length).toBe(metricsBefore);
    variant.checkAndReset();
  });

  it('the standard OTEL_TRACES_EXPORTER=otlp and OTEL_EXPORTER_OTLP_ENDPOINT turn it on without agent.yaml', async () => {
    variant.script(variant.reply('Hello.'));
    const server = await startServe(variant.agent(), [], {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl,
      OTEL_SERVICE_NAME: 'my-service',
    });
    let id = '';
    try {
      id = ((await (await postJson(`${server.url}/v1/sessions`, {})).json()) as { id: string }).id;
      expect((await postJson(`${server.url}/v1/sessions/${id}/messages`, { message: 'Hi' })).status).toBe(
        200,
      );
    } finally {
      await server.stop();
    }
    // the spans left in the batch are exported at shutdown
    const turn = spans.find(
      (span) => span.name === 'invoke_agent e2e-agent' && attribute(span, 'holodeck.session.id') === id,
    );
    expect(turn).toBeDefined();
    variant.checkAndReset();
  });
});
