import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ActiveSession,
  augurAsyncTool,
  NovarchHookGate,
  NovarchToolGovernor,
} from '../../../src/index.js';
import {
  type NovarchTestBase,
  openNovarchTestBase,
  REFUND,
  refundContext,
  SCOPE,
  testEngine,
} from './support/novarch-test-world.js';

// Issue 24: a misspelt tool kind made a write tool run unjudged on the hook gate (a kind that is not
// "write" was treated as a read). Every path refuses it at construction, naming the value and the
// allowed ones.

let base: NovarchTestBase;
let session: ActiveSession;
beforeAll(async () => {
  base = await openNovarchTestBase();
  const engine = testEngine(base, base.store);
  session = { engine, record: await engine.openSession({ ...SCOPE }) };
});
afterAll(() => base.close());

const spec = { actionType: 'issue_refund', contextBuilder: refundContext };
/** Kinds the types forbid but JavaScript callers (and JSON config) can pass. */
const MISSPELT: [unknown, string][] = [
  ['Write', '"Write"'],
  [' write', '" write"'],
  ['write ', '"write "'],
  ['READ', '"READ"'],
  ['readonly', '"readonly"'],
  [undefined, 'undefined'],
  [1, 'number 1'],
];

describe('a misspelt tool kind is refused at construction', () => {
  it.each(MISSPELT)('the hook gate refuses kind %j', (kind, shown) => {
    const toolKinds = JSON.parse(JSON.stringify({ [REFUND]: 'write' }));
    toolKinds[REFUND] = kind;
    expect(() => new NovarchHookGate({ toolKinds, writeSpecs: { [REFUND]: spec }, session })).toThrow(
      `toolKinds["${REFUND}"] is ${shown}, which is not a tool kind: use exactly "read" or "write" (lower case, no spaces)`,
    );
  });

  it.each(MISSPELT)('the governor refuses kind %j', (kind, shown) => {
    const toolKinds: Record<string, unknown> = { refund: kind };
    // biome-ignore lint/suspicious/noExplicitAny: the point is a value the types do not allow
    expect(() => new NovarchToolGovernor({ session, toolKinds: toolKinds as any })).toThrow(
      `toolKinds["refund"] is ${shown}, which is not a tool kind: use exactly "read" or "write" (lower case, no spaces)`,
    );
  });

  it.each(MISSPELT.filter(([kind]) => typeof kind === 'string'))(
    'augurAsyncTool refuses kind %j',
    async (kind, shown) => {
      await expect(
        augurAsyncTool(
          'refund',
          'Refund',
          {},
          // biome-ignore lint/suspicious/noExplicitAny: the point is a value the types do not allow
          { kind: kind as any, ...spec },
          async () => ({ content: [] }),
        ),
      ).rejects.toThrow(
        `augurAsyncTool("refund"): kind is ${shown}, which is not a tool kind: use exactly "read" or "write" (lower case, no spaces)`,
      );
    },
  );

  it('a toolKinds that is not an object is refused, not read as "no tools"', () => {
    // biome-ignore lint/suspicious/noExplicitAny: the point is a value the types do not allow
    expect(() => new NovarchHookGate({ toolKinds: ['write'] as any, writeSpecs: {}, session })).toThrow(
      'toolKinds must be an object of tool name → "read" or "write", got an array',
    );
  });
});
