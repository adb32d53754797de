// @ts-check
// gate-overhead: the command line, the bench's constants, the tools' outputs.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { integerOption } from '../bench-format.mjs';

/**
 * Targets: read overhead p99 ≤ 2 ms (issue 14); passed write p99 ≤ 2 ms and ≤ 2× the disk's
 * measured commit p99 (issue 24), with the same durability.
 */
export const TARGET_READ_P99_MS = 2;
export const TARGET_WRITE_P99_MS = 2;

export const here = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const novarchDist = path.join(here, '../packages/novarch/dist/index.js');

export const LOOKUP = 'mcp__cs__lookup_customer';
export const REFUND = 'mcp__cs__issue_refund';
/** Passes TEAM-2 (amount <= 500); TEAM-1 passes thanks to the lookup of the same customer. */
export const REFUND_AMOUNT = 120;

/** The customer-service rules of the gate e2e fixture (packages/novarch/test/e2e/support/gate-fixture.ts). */
export const RULES_FILE = path.join(here, '../packages/novarch/test/fixtures/rules/cs-ops-gate.rules.yaml');

export const SCOPE = { tenantId: 'bench', teamId: 'cs-ops', agentId: 'bench-bot' };

export const GATE_OPTIONS = {
  toolKinds: { [LOOKUP]: 'read', [REFUND]: 'write' },
  writeSpecs: {
    [REFUND]: {
      actionType: 'issue_refund',
      contextBuilder: (args) => {
        if (typeof args.customer_id !== 'string' || typeof args.amount !== 'number')
          throw new Error('customer_id and amount are required');
        return { recordId: args.customer_id, summary: `refund ${args.customer_id}`, amount: args.amount };
      },
    },
  },
};

/** `--output-bytes` pads each lookup's output: real tool outputs are often kilobytes of JSON. */
export let outputPadding = '';
/** Sets the padding of each lookup's output (`--output-bytes`). */
export function setOutputBytes(bytes) {
  outputPadding = bytes ? ` ${'x'.repeat(bytes)}` : '';
}
export const lookupOutput = (customer) => ({
  content: [
    { type: /** @type {const} */ ('text'), text: `customer ${customer}: in good standing${outputPadding}` },
  ],
});
export const refundOutput = (customer, amount) => ({
  content: [{ type: /** @type {const} */ ('text'), text: `refunded ${amount} to ${customer}` }],
});

export class BenchError extends Error {}

export const color = process.stdout.isTTY && !process.env.NO_COLOR;
export const paint = (code, text) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);

export function parseOptions() {
  const { values } = parseArgs({
    options: {
      reads: { type: 'string', default: '2000' },
      writes: { type: 'string', default: '500' },
      'session-reads': { type: 'string', default: '100' },
      evidence: { type: 'string', default: '20' },
      samples: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '1' },
      'cli-reads': { type: 'string', default: '20' },
      'output-bytes': { type: 'string', default: '0' },
      novarch: { type: 'string' },
      compare: { type: 'string' },
      blocks: { type: 'string', default: '4' },
      dir: { type: 'string' },
      'skip-cli': { type: 'boolean', default: false },
      'skip-hook': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: node bench/gate-overhead.mjs [--reads N (2000)] [--writes N (500)] [--session-reads N (100)]\n' +
        '                                    [--evidence N (20)] [--samples N (10)] [--warmup N (1)]\n' +
        '                                    [--cli-reads K (20)] [--output-bytes N (0)] [--dir DIR (os.tmpdir())]\n' +
        '                                    [--skip-cli] [--skip-hook] [--novarch path/to/dist/index.js (a patched copy)]\n' +
        '                                    [--compare path/to/other/dist/index.js (before/after at the hook level)] [--blocks N (4)]\n',
    );
    process.exit(0);
  }
  const integer = (name, min) => integerOption(values, name, min, BenchError);
  return {
    reads: integer('reads', 1),
    writes: integer('writes', 1),
    sessionReads: integer('session-reads', 1),
    evidence: integer('evidence', 1),
    samples: integer('samples', 1),
    warmup: integer('warmup', 0),
    cliReads: integer('cli-reads', 1),
    dir: values.dir ?? os.tmpdir(),
    skipCli: values['skip-cli'],
    skipHook: values['skip-hook'],
    outputBytes: integer('output-bytes', 0),
    novarch: path.resolve(values.novarch ?? novarchDist),
    compare: values.compare === undefined ? undefined : path.resolve(values.compare),
    blocks: integer('blocks', 1),
  };
}
