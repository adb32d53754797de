import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type OtlpReceiver, otlpAttribute, startOtlpReceiver } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadRulesFile, NovarchEngine, openSqliteStore } from '../../../src/index.js';
import { startNovarchTelemetry } from '../../../src/telemetry/start-novarch-telemetry.js';
import { telemetrySettings } from '../../../src/telemetry/telemetry-settings.js';
import { createTempStoreFiles } from '../../store/temp-store-file.js';

// The engine's spans and metrics, exported over OTLP/HTTP JSON by the real OpenTelemetry SDK to a
// loopback receiver: a span per decision, per LLM judge call and per hold wait; the decision
// latency histogram, kills, judge errors and pending holds.

const GATE_RULES = fileURLToPath(new URL('../../fixtures/rules/cs-ops-gate.rules.yaml', import.meta.url));
const files = createTempStoreFiles();
let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await receiver.close();
  files.cleanup();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const refund = (customer: string, amount: number) => ({
  actionType: 'issue_refund',
  toolName: 'mcp__cs__issue_refund',
  input: { customer_id: customer, amount },
  context: { recordId: customer, summary: `refund ${customer}`, amount },
});

describe('NovarchEngine telemetry', () => {
  it('exports a span per decision, judge call and hold wait, and the four metrics', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    const settings = telemetrySettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_METRICS_EXPORTER: 'otlp' });
    if (settings === undefined) throw new Error('telemetry should be on');
    const telemetry = startNovarchTelemetry(settings);
    const store = await openSqliteStore(files.next());
    const llmRules = path.join(path.dirname(files.next()), 'mail.rules.yaml');
    writeFileSync(
      llmRules,
      'team: mail\naction_types: [send_email]\nrules:\n  - id: MAIL-1\n    version: 1\n    description: No email promises a refund.\n    applies_to: [send_email]\n    on_violation: hold\n',
    );
    const engine = new NovarchEngine({
      store,
      rules: [await loadRulesFile(GATE_RULES), await loadRulesFile(llmRules)],
      holdWindowSeconds: 60,
      telemetry,
      llmJudge: {
        judge: () => Promise.reject(new Error('the judge model is unreachable')),
      },
    });
    telemetry.observePendingHolds(async () => (await store.listHolds({ status: 'pending' })).length);

    const session = await engine.openSession({ tenantId: 'acme', teamId: 'cs-ops', agentId: 'bot' });
    expect((await engine.decide(session, refund('C1', 20))).verdict.kind).toBe('kill'); // no lookup first
    const at = new Date().toISOString();
    for (const customer of ['C2', 'C3']) {
      await store.recordEvidence({
        sessionId: session.id,
        toolName: 'mcp__cs__lookup_customer',
        input: { customer_id: customer },
        output: 'ok',
        isError: false,
        startedAt: at,
        finishedAt: at,
      });
    }
    expect((await engine.decide(session, refund('C2', 20))).verdict.kind).toBe('pass');
    const held = await engine.decide(session, refund('C3', 900));
    const pendingToo = await engine.decide(session, refund('C3', 901));
    if (held.hold === undefined || pendingToo.hold === undefined) throw new Error('expected holds');
    await store.decideHold(held.hold.id, 'approved', 'operator:ana');
    expect((await engine.awaitHold(held.hold)).status).toBe('approved');
    const mail = await engine.openSession({ tenantId: 'acme', teamId: 'mail', agentId: 'mailer' });
    const judged = await engine.decide(mail, {
      actionType: 'send_email',
      toolName: 'send',
      input: {},
      context: { recordId: 'm', summary: 'mail' },
    });
    expect(judged.verdict.kind).toBe('hold');
    await telemetry.shutdown();
    await store.close();

    const names = receiver.spans.map((span) => span.name).sort();
    expect(names).toEqual([
      'novarch.decision',
      'novarch.decision',
      'novarch.decision',
      'novarch.decision',
      'novarch.decision',
      'novarch.hold.wait',
      'novarch.judge',
    ]);
    const decisions = receiver.spans.filter((span) => span.name === 'novarch.decision');
    expect(decisions.map((span) => otlpAttribute(span, 'novarch.verdict'))).toEqual([
      'kill',
      'pass',
      'hold',
      'hold',
      'hold',
    ]);
    expect(otlpAttribute(decisions[0] ?? { attributes: [] }, 'novarch.tenant')).toBe('acme');
    const judge = receiver.spans.find((span) => span.name === 'novarch.judge');
    // The judge call is inside its decision's span, and failed.
    expect(judge?.parentSpanId).toBe(decisions[4]?.spanId);
    expect(judge?.status?.code).toBe(2);
    expect(
      otlpAttribute(
        receiver.spans.find((span) => span.name === 'novarch.hold.wait') ?? { attributes: [] },
        'novarch.hold.status',
      ),
    ).toBe('approved');

    const metric = (name: string) => receiver.metrics.filter((entry) => entry.name === name).at(-1);
    const latency = metric('novarch.decision.duration');
    expect(latency?.unit).toBe('ms');
    expect(latency?.points.reduce((sum, point) => sum + Number(point.count ?? 0), 0)).toBe(5);
    expect(
      metric('novarch.kills')?.points.map((point) => [
        otlpAttribute(point, 'novarch.kill.source'),
        point.asInt ?? point.asDouble,
      ]),
    ).toEqual([['judge', 1]]);
    expect(metric('novarch.judge.errors')?.points.map((point) => point.asInt ?? point.asDouble)).toEqual([1]);
    // The hold of 901 (and the mail's) are still pending.
    expect(metric('novarch.holds.pending')?.points.map((point) => point.asInt ?? point.asDouble)).toEqual([
      2,
    ]);
    expect(new Set(receiver.contentTypes)).toEqual(new Set(['application/json']));
  });

  it('is off by default, and refuses what it cannot honour', () => {
    expect(telemetrySettings({})).toBeUndefined();
    expect(telemetrySettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(telemetrySettings({ OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(telemetrySettings({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_SERVICE_NAME: 'gate-eu' })).toEqual({
      serviceName: 'gate-eu',
      traces: false,
      metrics: true,
    });
    expect(() => telemetrySettings({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(
      'OTEL_TRACES_EXPORTER=zipkin: Novarch exports over OTLP only; set it to otlp, or none (or unset it) for no export.',
    );
    expect(() =>
      telemetrySettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toThrow(
      'OTEL_EXPORTER_OTLP_PROTOCOL=grpc: Novarch sends OTLP over HTTP as JSON; set it to http/json or unset it.',
    );
    expect(() =>
      telemetrySettings({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_METRIC_EXPORT_INTERVAL: 'soon' }),
    ).toThrow('OTEL_METRIC_EXPORT_INTERVAL=soon: expected a whole number of ms ≥ 1.');
  });
});
