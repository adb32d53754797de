import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { OperatorUsageError } from '../../errors.js';
import { formatAuditVerification } from '../../format/format-audit-verification.js';
import { formatJson } from '../../format/format-table.js';
import { buildAuditExport, verifyAuditExport } from '../../operations/audit-export.js';
import { loadSigningKey, loadVerifyingKey } from '../../operations/audit-signing-key.js';
import { errorMessage } from '../../support.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import { paint } from '../terminal-style.js';
import {
  GlobalOptionsSchema,
  type OperatorContext,
  onStore,
  parseCommandOptions,
  type RunCommand,
  serverClient,
} from './operator-context.js';

/** Where the key that signs exports is, when `--signing-key` is not given. */
export const AUDIT_SIGNING_KEY_ENV = 'NOVARCH_AUDIT_SIGNING_KEY_FILE';

const VerifyOptionsSchema = GlobalOptionsSchema.extend({
  tenant: z.string().min(1).optional(),
  team: z.string().min(1).optional(),
  export: z.string().min(1).optional(),
  publicKey: z.string().min(1).optional(),
  json: z.boolean().default(false),
});

const ExportOptionsSchema = GlobalOptionsSchema.extend({
  tenant: z.string().min(1).optional(),
  team: z.string().min(1).optional(),
  out: z.string().min(1).optional(),
  signingKey: z.string().min(1).optional(),
});

/** `novarch audit verify` and `novarch audit export`, under `audit`. */
export function registerAuditChainCommands(audit: Command, run: RunCommand, context: OperatorContext): void {
  audit
    .command('verify')
    .description(
      'checks the audit hash chains: every verdict, hold, decision, kill and rule change is still as recorded, none was removed, inserted or moved (exit 5 if one was)',
    )
    .option('--tenant <tenant>', "only this tenant's chain")
    .option('--team <team>', "only this team's rule changes")
    .option(
      '--export <file>',
      'check an export file offline (written by `novarch audit export`) instead of a store',
    )
    .option('--public-key <file>', 'with --export: the export must be signed by this Ed25519 key (PEM)')
    .option('--json', 'print the report as JSON')
    .action((_options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(VerifyOptionsSchema, command);
        return options.export === undefined
          ? verifyChains(options, context)
          : verifyExportFile(options.export, options, context);
      }),
    );

  audit
    .command('export')
    .description(
      `writes the audit chains with every record they vouch for as JSON, signed with Ed25519 when a key is given (--signing-key, or $${AUDIT_SIGNING_KEY_ENV})`,
    )
    .option('--tenant <tenant>', "only this tenant's chain")
    .option('--team <team>', "only this team's rule changes")
    .option('--out <file>', 'write to this file (default: stdout)')
    .option('--signing-key <file>', 'an Ed25519 private key (PEM) to sign the export with')
    .action((_options: unknown, command: Command) => run(() => exportChains(command, context)));
}

type VerifyOptions = z.output<typeof VerifyOptionsSchema>;

/** `audit verify --export FILE`: the export checked offline, signed by `--public-key` when given. */
function verifyExportFile(
  exportFile: string,
  options: VerifyOptions,
  context: OperatorContext,
): ExitCodeValue {
  if (
    options.tenant !== undefined ||
    options.team !== undefined ||
    options.server !== undefined ||
    options.store !== undefined
  )
    throw new OperatorUsageError(
      'novarch audit verify --export checks the whole file offline: drop --tenant, --team, --server and --store.',
    );
  const file = path.resolve(context.cwd, exportFile);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new OperatorUsageError(`Cannot read the export ${file}: ${errorMessage(error)}.`);
  }
  const requiredKey =
    options.publicKey === undefined
      ? undefined
      : loadVerifyingKey(path.resolve(context.cwd, options.publicKey));
  const result = verifyAuditExport(text, file, requiredKey);
  context.stdout.write(
    options.json
      ? formatJson(result)
      : paint(formatAuditVerification(result.chains, result.signature), context.style),
  );
  return result.intact ? ExitCode.ok : ExitCode.tampered;
}

/** `audit verify`: the chains of the store, or of the server with `--server`. */
async function verifyChains(options: VerifyOptions, context: OperatorContext): Promise<ExitCodeValue> {
  if (options.publicKey !== undefined)
    throw new OperatorUsageError(
      '--public-key checks the signature of an export: give the file with --export.',
    );
  const filter = {
    ...(options.tenant === undefined ? {} : { tenantId: options.tenant }),
    ...(options.team === undefined ? {} : { team: options.team }),
  };
  const remote = serverClient(options, context);
  if (remote !== undefined && options.team !== undefined)
    throw new OperatorUsageError(
      '--team has no effect with --server: the server verifies the rules chains of each tenant it verifies. Drop --team, or use --tenant.',
    );
  const chains = remote
    ? (await remote.call((client) => client.verifyAudit(filter))).chains
    : await onStore(options, context, (store) => store.verifyAuditChains(filter));
  const intact = chains.every((chain) => chain.problems.length === 0);
  context.stdout.write(
    options.json ? formatJson({ intact, chains }) : paint(formatAuditVerification(chains), context.style),
  );
  return intact ? ExitCode.ok : ExitCode.tampered;
}

/** `audit export`: the chains and their records as JSON, to stdout or `--out`. */
async function exportChains(command: Command, context: OperatorContext): Promise<ExitCodeValue> {
  const options = parseCommandOptions(ExportOptionsSchema, command);
  if (options.server !== undefined)
    throw new OperatorUsageError(
      'novarch audit export reads the store directly: run it where the store is (--store or --config), or check the server with `novarch audit verify --server URL`.',
    );
  const keyFile = options.signingKey ?? context.env[AUDIT_SIGNING_KEY_ENV];
  const signingKey =
    keyFile === undefined || keyFile === '' ? undefined : loadSigningKey(path.resolve(context.cwd, keyFile));
  const filter = {
    ...(options.tenant === undefined ? {} : { tenantId: options.tenant }),
    ...(options.team === undefined ? {} : { team: options.team }),
  };
  const exported = await onStore(options, context, (store) =>
    buildAuditExport(store, filter, {
      ...(signingKey === undefined ? {} : { signingKey }),
      now: context.now(),
    }),
  );
  const text = `${JSON.stringify(exported, null, 2)}\n`;
  if (options.out === undefined) context.stdout.write(text);
  else writeFileSync(path.resolve(context.cwd, options.out), text, { mode: 0o600 });
  return ExitCode.ok;
}
