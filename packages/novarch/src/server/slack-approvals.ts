import { NovarchError } from '../errors.js';
import type { IdentityStore } from '../identity/identity-store.js';
import type { OperatorPrincipal } from '../identity/principal.js';
import type { NovarchDatabaseStore, SlackMessageRef } from '../model/novarch-store.js';
import type { HoldRecord } from '../model/records.js';
import { SlackApiClient } from '../notify/slack-api-client.js';
import {
  buildSlackHoldMessage,
  SLACK_APPROVE_ACTION,
  SLACK_DENY_ACTION,
} from '../notify/slack-hold-message.js';
import { slackText } from '../notify/slack-text.js';
import { describeApprovals } from '../operations/check-decider.js';
import { decideHoldAsOperator } from '../operations/decide-hold-as-operator.js';
import { loadHoldDetail } from '../operations/hold-operations.js';
import { errorMessage } from '../support.js';
import { plainText, readSlackInteraction } from './read-slack-interaction.js';
import type { SlackSettings } from './resolve-slack-settings.js';
import { SERVER_STORE_LABEL } from './routes/route-helpers.js';
import type { ServerEvent, ServerEvents } from './server-events.js';
import { SessionScopeCache } from './session-scope-cache.js';
import { TenantScopedStore } from './tenant-scoped-store.js';

/** Where Slack sends button clicks: the app's Interactivity "Request URL" is `${publicUrl}${SLACK_INTERACTIONS_PATH}`. */
export const SLACK_INTERACTIONS_PATH = '/slack/interactions';

export interface SlackApprovalsOptions {
  settings: SlackSettings;
  /** The server's store (not scoped: each click is scoped to its operator's token). */
  store: NovarchDatabaseStore;
  identities: IdentityStore;
  events: ServerEvents;
  /** The console's base URL (`…/console`): messages link to the hold there. */
  consoleUrl?: string;
  /** Where Slack failures are reported (never a secret). */
  log: (message: string) => void;
  /** Slack's API client options beyond the token and URL (tests shorten the backoff). */
  client?: { maxAttempts?: number; backoffMs?: (attempt: number) => number; fetch?: typeof fetch };
}

const STATUS = { [SLACK_APPROVE_ACTION]: 'approved', [SLACK_DENY_ACTION]: 'denied' } as const;

/**
 * Interactive approvals in Slack. Each hold created on this server whose team (or held rule) has a
 * channel is posted there (`chat.postMessage`: the action, the why, Approve / Deny) by one server
 * of the store; each decision seen on the server's event bus (console, API, Slack, a timeout, on
 * this server or another) updates its messages (`chat.update`) once, from the store's record of
 * them (migration 16), so a restarted or another server updates what this one posted. A click (`handleInteraction`) is verified with the signing secret and a 5-minute
 * replay window, mapped to the operator token the Slack user is configured as, and decided through
 * the same operation as the API and console (grants, approver groups, separation of duties, quorum),
 * stored as "decided via slack by NAME". Refusals reach the clicking user alone (ephemeral).
 */
export class SlackApprovals {
  readonly #options: SlackApprovalsOptions;
  readonly #client: SlackApiClient;
  readonly #scopes = new SessionScopeCache();
  /** The work on each hold, one step after another (its messages are in the store). */
  readonly #queues = new Map<string, Promise<void>>();
  readonly #work = new Set<Promise<void>>();
  #unsubscribe: (() => void) | undefined;

  constructor(options: SlackApprovalsOptions) {
    this.#options = options;
    this.#client = new SlackApiClient({
      botToken: options.settings.botToken,
      ...(options.settings.apiUrl === undefined ? {} : { apiUrl: options.settings.apiUrl }),
      ...options.client,
    });
  }

  /** Starts following the server's holds. */
  start(): void {
    this.#unsubscribe ??= this.#options.events.subscribe((event) => this.#onEvent(event));
  }

  /** Resolves once no message is being posted or updated and no reply is being sent. */
  async whenIdle(): Promise<void> {
    while (this.#work.size > 0) await Promise.allSettled([...this.#work]);
  }

  /** Stops following holds; waits for the Slack calls in flight (each bounded by its timeout). */
  async stop(): Promise<void> {
    this.#unsubscribe?.();
    await this.whenIdle();
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) =>
      this.#options.log(`novarch serve: Slack: ${errorMessage(error)}`),
    );
    this.#work.add(tracked);
    void tracked.finally(() => this.#work.delete(tracked));
  }

  /** Runs `step` after the earlier steps of the same hold (a post before its updates). */
  #onHold(holdId: string, step: () => Promise<void>): void {
    const previous = this.#queues.get(holdId) ?? Promise.resolve();
    const next = previous.then(step, step);
    this.#queues.set(
      holdId,
      next.catch(() => {}),
    );
    this.#track(next);
  }

  #onEvent(event: ServerEvent): void {
    const { hold } = event;
    if (hold === undefined) return;
    if (event.type === 'hold-created') this.#onHold(hold.id, () => this.#post(hold));
    else if (event.type === 'hold-decided') this.#onHold(hold.id, () => this.#update(hold.id));
  }

  /**
   * Posts a new hold to its channels, once across every server of the store (and restarts): the
   * store's claim decides who posts. The messages are stored, so whichever server sees the
   * decision updates them; a decision made while they were posted is shown at once after.
   */
  async #post(hold: HoldRecord): Promise<void> {
    const detail = await loadHoldDetail(this.#options.store, hold.id, SERVER_STORE_LABEL, new Date());
    if (detail.session === undefined) return;
    const { ruleChannels, teamChannels } = this.#options.settings;
    const byRule = (detail.verdict?.verdict.citations.ruleIds ?? []).flatMap(
      (rule) => own(ruleChannels, rule) ?? [],
    );
    const team = own(teamChannels, detail.session.teamId);
    const channels = [...new Set(byRule.length > 0 ? byRule : team === undefined ? [] : [team])];
    if (channels.length === 0 || !(await this.#options.store.claimSlackPost(hold.id))) return;
    const message = buildSlackHoldMessage({
      hold: detail.hold,
      session: detail.session,
      action: detail.action,
      citations: detail.verdict?.verdict.citations,
      consoleUrl: this.#consoleLink(hold.id),
    });
    const posted: SlackMessageRef[] = [];
    for (const channel of channels) {
      try {
        const answer = await this.#client.call('chat.postMessage', { channel, ...message });
        if (answer.ts !== undefined) posted.push({ channel: answer.channel ?? channel, ts: answer.ts });
      } catch (error) {
        this.#options.log(
          `novarch serve: Slack: hold ${hold.id} was not posted to ${channel}: ${errorMessage(error)}`,
        );
      }
    }
    await this.#options.store.recordSlackMessages(hold.id, posted, slackRank(detail.hold));
    await this.#update(hold.id);
  }

  /** Updates a hold's messages to show it as stored now, unless they (or another server) already do. */
  async #update(holdId: string): Promise<void> {
    const detail = await loadHoldDetail(this.#options.store, holdId, SERVER_STORE_LABEL, new Date());
    if (detail.session === undefined) return;
    const posted = await this.#options.store.claimSlackUpdate(holdId, slackRank(detail.hold));
    if (posted === undefined || posted.length === 0) return;
    const message = buildSlackHoldMessage({
      hold: detail.hold,
      session: detail.session,
      action: detail.action,
      citations: detail.verdict?.verdict.citations,
      consoleUrl: this.#consoleLink(holdId),
    });
    for (const { channel, ts } of posted) {
      try {
        await this.#client.call('chat.update', { channel, ts, ...message });
      } catch (error) {
        this.#options.log(
          `novarch serve: Slack: the message of hold ${holdId} in ${channel} was not updated: ${errorMessage(error)}`,
        );
      }
    }
  }

  #consoleLink(holdId: string): string | undefined {
    const base = this.#options.consoleUrl?.replace(/\/+$/, '');
    return base === undefined ? undefined : `${base}/holds/${encodeURIComponent(holdId)}`;
  }

  /**
   * Answers a POST to the interactivity request URL: 401 (plain text saying why) unless Slack
   * signed it within the replay window; 400 for a body that is no block_actions payload; else 200
   * at once, the decision stored, and the user told the outcome through the payload's
   * `response_url` (ephemeral: only they see it).
   */
  async handleInteraction(request: Request): Promise<Response> {
    const read = await readSlackInteraction(request, this.#options.settings.signingSecret);
    if ('refusal' in read) return read.refusal;
    const { payload } = read;
    const [action] = payload.actions;
    if (
      action === undefined ||
      !(action.action_id === SLACK_APPROVE_ACTION || action.action_id === SLACK_DENY_ACTION)
    )
      return plainText(200, '');
    const status = STATUS[action.action_id];
    const holdId = action.value ?? '';
    const reply = (message: string) =>
      this.#track(
        this.#client.respond(payload.response_url, {
          response_type: 'ephemeral',
          replace_original: false,
          text: message,
        }),
      );
    const decided = await this.#decide(payload.user.id, holdId, status);
    reply(decided);
    return plainText(200, '');
  }

  /** Decides as the operator `slackUserId` is mapped to; returns what to tell them. */
  async #decide(slackUserId: string, holdId: string, status: 'approved' | 'denied'): Promise<string> {
    const { operators } = this.#options.settings;
    const name = own(operators, slackUserId);
    const who = slackText(slackUserId, 40);
    if (name === undefined)
      return `Slack user ${who} is not mapped to a Novarch operator: an admin adds it under server.slack.operators in novarch.yaml. Nothing was changed.`;
    const tokens = (await this.#options.identities.listOperatorTokens()).filter(
      (token) => token.name === name && token.revokedAt === undefined,
    );
    const [token] = tokens;
    if (token === undefined || tokens.length > 1)
      return `Slack user ${who} is mapped to operator ${name}, who has ${tokens.length === 0 ? 'no active operator token: an admin creates one with novarch operators create --name' : `${tokens.length} active operator tokens, so which duties apply is unclear: an admin revokes all but one of the tokens named`} ${name}. Nothing was changed.`;
    const principal: OperatorPrincipal = {
      kind: 'operator',
      id: token.id,
      name: token.name,
      role: token.role,
      grants: token.grants,
      ...(token.groups === undefined ? {} : { groups: token.groups }),
      ...(token.notForKeys === undefined ? {} : { notForKeys: token.notForKeys }),
    };
    const scoped = new TenantScopedStore(this.#options.store, principal, this.#scopes);
    try {
      const hold = await scoped.requireHold(holdId);
      const result = await decideHoldAsOperator(
        scoped,
        {
          holdId: hold.id,
          status,
          operator: name,
          rationale: `decided via slack by ${name}`,
          via: 'token',
          groups: token.groups,
          notForKeys: token.notForKeys,
        },
        SERVER_STORE_LABEL,
        new Date(),
      );
      this.#options.events.emitHold('hold-decided', await scoped.requireSession(hold.sessionId), result.hold);
      if (result.awaiting !== undefined)
        return `Your approval of hold ${slackText(hold.id, 100)} is recorded: ${describeApprovals(result.hold) ?? ''}.`;
      return `Hold ${slackText(hold.id, 100)} ${status} by ${name}.`;
    } catch (error) {
      if (error instanceof NovarchError) return slackText(error.message, 1_500);
      this.#options.log(`novarch serve: Slack: a decision on hold ${holdId} failed: ${errorMessage(error)}`);
      return `Hold ${slackText(holdId, 100)} could not be decided: the server failed (its log says why). Nothing was changed.`;
    }
  }
}

/**
 * How far a hold has come, as the order its messages may show it in: each approval of a quorum
 * one step, the decision last. A server with an older view never updates a message back.
 */
function slackRank(hold: HoldRecord): number {
  // Above any count of approvals; within the `integer` column of both databases.
  return hold.status === 'pending' ? (hold.approvals?.length ?? 0) : 1_000_000_000;
}

/** `record[key]` when it is the record's own entry (never a prototype's, e.g. `constructor`). */
function own(record: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
