import type { Command } from 'commander';
import { z } from 'zod';
import { ModelLlmJudge } from '../../rules/llm/model-llm-judge.js';
import { loadRulesFiles } from '../../rules/load-rules-file.js';
import {
  resolveServeSettings,
  SERVER_ENV,
  type ServeSettings,
  WEBHOOK_SECRET_ENV_PREFIX,
} from '../../server/resolve-server-settings.js';
import { type TelemetrySettings, telemetrySettings } from '../../telemetry/telemetry-settings.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import {
  GlobalOptionsSchema,
  type OperatorContext,
  parseCommandOptions,
  type RunCommand,
} from './operator-context.js';

const ServeOptionsSchema = GlobalOptionsSchema.extend({
  listen: z.string().optional(),
  holdWindow: z.string().optional(),
  publicUrl: z.string().optional(),
  webhook: z.array(z.string()).optional(),
  drainTimeout: z.string().optional(),
});

export const SERVE_HELP = `
Settings, each from the first that has it:
  listen       --listen > $${SERVER_ENV.listen} > server.listen > 127.0.0.1:7311
  store        --store (sqlite:PATH, a SQLite file, or postgres://…) > $${SERVER_ENV.storeUrl}
               > server.store_url > sqlite: + store.path (default ~/.novarch/novarch.db)
  hold window  --hold-window > $${SERVER_ENV.holdWindow} > hold_window_seconds > 300
  config       --config > $${SERVER_ENV.config} > ./novarch.yaml when present
               (its rules:, judge: and server.tenants are used too)
  public URL   --public-url > $${SERVER_ENV.publicUrl} > server.public_url > the listen address: where
               operators reach the server (webhooks link to its /console; the console accepts forms
               from it only)
  webhooks     --webhook TENANT=URL (repeat) > $${SERVER_ENV.webhooks} (TENANT=URL,TENANT=URL)
               > server.tenants.TENANT.webhook.url; each tenant's signing secret in
               $${WEBHOOK_SECRET_ENV_PREFIX}<TENANT> (capitals, . and - as _), never in a flag or the file
  drain        --drain-timeout > $${SERVER_ENV.drainTimeout} > server.drain_timeout_seconds > 30

The operator console is at <public URL>/console (sign in with an operator token).

Agents reach it with NOVARCH_SERVER=URL and NOVARCH_API_KEY=nva_… (novarch keys create);
operators with --server URL and NOVARCH_TOKEN=nvo_… (novarch operators create).

SIGTERM or SIGINT shuts it down gracefully: it stops accepting connections, lets the requests in
flight finish (a write being judged gets its stored verdict), then closes the store. A write still
being judged when the drain timeout passes is stored as refused and answered 503 (fail-closed).

Several servers may share one PostgreSQL store behind any load balancer: live events, failed
sign-ins and webhook deliveries are shared, and when one dies a survivor stores the writes it was
judging as refused. A SQLite store has one server.

Exit codes of serve:
  0  stopped by SIGTERM or SIGINT after a graceful shutdown
  1  could not start: the address is in use, the store could not be opened (rerun with --debug);
     or, on PostgreSQL, another server took this one's lease (it was unreachable longer than the
     lease, 10 s) and it stopped
  2  usage or configuration error: a bad --listen, --store, --hold-window or --drain-timeout, a
     webhook without its secret variable, an invalid novarch.yaml`;

/** `novarch serve`: the Novarch HTTP API for agents and operators. */
export function registerServeCommand(program: Command, run: RunCommand, context: OperatorContext): void {
  program
    .command('serve')
    .description('serve the Novarch API: agents propose writes over HTTP, operators decide holds')
    .option('--listen <host:port>', 'where to listen (default 127.0.0.1:7311; port 0: any free port)')
    .option('--hold-window <seconds>', "the deployment's hold window (default hold_window_seconds, 300)")
    .option('--public-url <url>', 'where operators reach this server, e.g. https://novarch.example.com')
    .option(
      '--webhook <tenant=url>',
      'POST a signed webhook to URL on every new hold of TENANT (repeat per tenant; the secret from $NOVARCH_WEBHOOK_SECRET_<TENANT>)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--drain-timeout <seconds>',
      'on SIGTERM, how long writes being judged may take before they are refused (default 30)',
    )
    .addHelpText('after', SERVE_HELP)
    .action((_options: unknown, command: Command) =>
      run(async () => serve(parseCommandOptions(ServeOptionsSchema, command), context)),
    );
}

/** Serves until SIGTERM or SIGINT (exit 0) or until another server takes the lease (exit 1). */
async function serve(
  options: z.output<typeof ServeOptionsSchema>,
  context: OperatorContext,
): Promise<ExitCodeValue> {
  const settings = await resolveServeSettings(options, context);
  const rules = await loadRulesFiles(settings.config?.rules ?? []);
  const judge = settings.config?.judge;
  // Once the server stopped, the judge's requests still open are pointless (nothing they
  // answer is stored): abort them, so the process ends now rather than at their timeout.
  const judgeRequests = new AbortController();
  const judgeFetch = fetchAbortedBy(judgeRequests.signal);
  // Off unless the standard OTEL_* variables ask for it; a value that cannot be honoured is refused.
  const telemetryWanted = telemetrySettings(context.env);
  const telemetry =
    telemetryWanted === undefined
      ? undefined
      : (await import('../../telemetry/start-novarch-telemetry.js')).startNovarchTelemetry(telemetryWanted);
  // Loaded on use: --help need not import the server and its store.
  const { startNovarchServer } = await import('../../server/start-novarch-server.js');
  // Another server of the same PostgreSQL took this one's lease: stop, and exit 1.
  let leaseLost: () => void = () => {};
  const lostLease = new Promise<string>((resolve) => {
    leaseLost = () => resolve('lease lost');
  });
  const server = await startNovarchServer({
    onLeaseLost: () => leaseLost(),
    storeUrl: settings.storeUrl,
    storeOptions: settings.storeOptions,
    host: settings.host,
    port: settings.port,
    rules,
    holdWindowSeconds: settings.holdWindowSeconds,
    ...(judge === undefined
      ? {}
      : { llmJudge: new ModelLlmJudge({ ...judge, env: context.env, fetch: judgeFetch }) }),
    ...(settings.tenants === undefined ? {} : { tenants: settings.tenants }),
    ...(settings.publicUrl === undefined ? {} : { publicUrl: settings.publicUrl }),
    ...(settings.webhooks === undefined ? {} : { webhooks: { targets: settings.webhooks } }),
    drainTimeoutMs: settings.drainTimeoutMs,
    ...(telemetry === undefined ? {} : { telemetry }),
    ...(settings.slack === undefined ? {} : { slack: settings.slack }),
  });
  context.stdout.write(
    listeningLine(
      settings,
      { url: server.url, store: server.stores.description },
      rules.length,
      telemetryWanted,
    ),
  );
  const signal = await Promise.race([
    lostLease,
    new Promise<string>((resolve) => {
      const stop = (name: string) => () => resolve(name);
      process.once('SIGTERM', stop('SIGTERM'));
      process.once('SIGINT', stop('SIGINT'));
    }),
  ]);
  context.stdout.write(`novarch serve: ${signal}: shutting down (finishing requests in flight)\n`);
  await server.close();
  judgeRequests.abort();
  context.stdout.write('novarch serve: stopped; the store is closed\n');
  return signal === 'lease lost' ? ExitCode.internal : ExitCode.ok;
}

/** `fetch`, with each request also aborted by `signal`. */
function fetchAbortedBy(signal: AbortSignal): typeof fetch {
  return (input, init) =>
    fetch(input, {
      ...init,
      signal: init?.signal == null ? signal : AbortSignal.any([init.signal, signal]),
    });
}

/** What `novarch serve` says once it listens: where, on which store, with what (never a secret). */
function listeningLine(
  settings: ServeSettings,
  server: { url: string; store: string },
  rulesFiles: number,
  telemetryWanted: TelemetrySettings | undefined,
): string {
  const telemetryNote =
    telemetryWanted === undefined
      ? ''
      : `; OpenTelemetry ${[telemetryWanted.traces ? 'traces' : '', telemetryWanted.metrics ? 'metrics' : ''].filter(Boolean).join(' and ')} over OTLP`;
  const rulesNote =
    rulesFiles === 0
      ? 'no rules files: a team without pushed rules has every write killed'
      : `${rulesFiles} rules file(s), replaced per team by pushed rules`;
  const webhookNote =
    settings.webhooks === undefined
      ? ''
      : `; webhooks for ${Object.keys(settings.webhooks).join(', ')} (from ${settings.webhookSource})`;
  // Channels and how many users are mapped; never the token or the signing secret.
  const slackNote =
    settings.slack === undefined
      ? ''
      : `; Slack approvals in ${new Set([...Object.values(settings.slack.teamChannels), ...Object.values(settings.slack.ruleChannels)]).size} channel(s) for ${Object.keys(settings.slack.operators).length} mapped user(s), request URL ${settings.publicUrl?.replace(/\/+$/, '') ?? server.url}/slack/interactions`;
  return `novarch serve: listening on ${server.url} (store ${server.store}, from ${settings.storeSource}; ${rulesNote}; hold window ${settings.holdWindowSeconds} s${webhookNote}${slackNote}${telemetryNote}); console at ${settings.publicUrl?.replace(/\/+$/, '') ?? server.url}/console\n`;
}
