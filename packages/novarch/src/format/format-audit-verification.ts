import type { AuditChainReport } from '../model/audit-chain.js';
import { neutralise } from './neutralise-text.js';
import { line, type StyledText, span } from './styled-text.js';

/** What `novarch audit verify` prints: one line per chain, each problem under it, a verdict last. */
export function formatAuditVerification(
  chains: readonly AuditChainReport[],
  signature?: { status: 'valid' | 'absent' | 'invalid'; keyFingerprint?: string | undefined },
): StyledText {
  const lines: StyledText[number][] = [];
  for (const report of chains) {
    if (report.chain === '(signature)') continue;
    const count = report.links === 1 ? '1 link' : `${report.links} links`;
    const state =
      report.problems.length === 0
        ? span('intact', 'green')
        : span(report.problems.length === 1 ? '1 problem' : `${report.problems.length} problems`, 'red');
    lines.push(line(neutralise(report.chain), `  ${count}, head ${report.head.hash.slice(0, 12)}  `, state));
    for (const problem of report.problems)
      lines.push(line('  ', span('✗', 'red'), ` ${neutralise(problem.message)}`));
  }
  if (signature !== undefined) {
    const fingerprint = signature.keyFingerprint === undefined ? '' : ` (key ${signature.keyFingerprint})`;
    if (signature.status === 'valid') lines.push(line('signature: ', span('valid', 'green'), fingerprint));
    else if (signature.status === 'absent')
      lines.push(line('signature: ', span('none', 'yellow'), ' (the export is not signed)'));
    else lines.push(line('signature: ', span('invalid', 'red'), fingerprint));
    for (const problem of chains.find((report) => report.chain === '(signature)')?.problems ?? [])
      lines.push(line('  ', span('✗', 'red'), ` ${neutralise(problem.message)}`));
  }
  const broken = chains.filter((report) => report.problems.length > 0);
  const total = chains.filter((report) => report.chain !== '(signature)').length;
  if (total === 0 && broken.length === 0)
    lines.push(line('No audit chain yet: nothing was decided in this store.'));
  else if (broken.length === 0)
    lines.push(line(span(`All ${total === 1 ? '1 chain' : `${total} chains`} intact.`, 'green')));
  else {
    const problems = broken.reduce((sum, report) => sum + report.problems.length, 0);
    lines.push(
      line(
        span(
          `${problems === 1 ? '1 problem' : `${problems} problems`}: the audit trail was changed outside Novarch (exit 5).`,
          'red',
        ),
      ),
    );
  }
  return lines;
}
