import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isMap, isSeq, parseDocument, type YAMLSeq } from 'yaml';
import { type LoadedAgent, loadLabelsFile } from '../../config/index.js';
import { UsageError } from '../../errors.js';
import { writeAtomically } from '../../recording/recording-file.js';
import { redactText } from '../report/redact-agent-config.js';
import type { CaseReport, RunReport } from '../report/run-report.js';
import { calibratedMetrics } from './run-calibration.js';

/** What `holodeck test add --label` labels: a saved run's case, for one judge metric. */
export interface LabelRequest {
  run: RunReport;
  source: CaseReport;
  /** The judge metric (its name, else its type); may be left out when only one is calibrated. */
  metric?: string | undefined;
  label: 'pass' | 'fail';
  comment?: string | undefined;
  /** Values never written into the labels file (the credentials of the environment). */
  secrets: readonly string[];
}

/** The example a run's case makes: its last user message, its answer, the case's reference fields. */
export function exampleFromRun(agent: LoadedAgent, request: LabelRequest): Record<string, unknown> {
  const attempt = request.source.attempts[0];
  if (!attempt || attempt.error !== undefined)
    throw new UsageError(
      '--case',
      `case "${request.source.name}" did not run to an answer in that run${attempt?.error ? ` (${attempt.error})` : ''}`,
      'label a case that ran, or a later run',
    );
  const suiteCase = agent.config.test_cases?.find((entry) => entry.name === request.source.name);
  const input = attempt.turns?.at(-1)?.input ?? request.source.input;
  const redact = (text: string) => redactText(text, request.secrets);
  return {
    input: redact(input),
    output: redact(attempt.response),
    ...(suiteCase?.ground_truth === undefined ? {} : { expected_output: redact(suiteCase.ground_truth) }),
    ...(suiteCase?.context === undefined ? {} : { retrieval_context: suiteCase.context.map(redact) }),
    label: request.label,
    ...(request.comment === undefined ? {} : { comment: redact(request.comment) }),
    source: `run ${request.run.run_id}, case ${request.source.name}, attempt ${attempt.attempt}`,
  };
}

function examplesOf(document: ReturnType<typeof parseDocument>, file: string): YAMLSeq {
  const contents = document.contents;
  if (isMap(contents)) {
    const existing = contents.get('examples', true);
    if (isSeq(existing)) return existing;
    const created = document.createNode([]) as YAMLSeq;
    contents.set('examples', created);
    return created;
  }
  if (contents === null) {
    const created = document.createNode({ examples: [] });
    document.contents = created;
    const examples = created.get('examples', true);
    if (isSeq(examples)) return examples;
  }
  throw new UsageError(
    '--label',
    `${file} is not a labels file (a mapping with examples:)`,
    'fix or move that file',
  );
}

/**
 * Appends a labelled example made from a saved run's case to the judge metric's labels file
 * (created when missing; comments and layout kept), then reads the file back: a result that does
 * not validate is put back as it was, and the ConfigError thrown. Returns the file and the metric.
 */
export async function appendLabel(
  agent: LoadedAgent,
  request: LabelRequest,
): Promise<{ file: string; metric: string }> {
  const candidates = calibratedMetrics(agent, request.metric);
  const [chosen] = candidates;
  if (chosen === undefined || (request.metric === undefined && candidates.length > 1))
    throw new UsageError(
      '--metric',
      'is required when several judge metrics have a calibration file',
      `name one of ${candidates.map(({ config }) => `"${config.name ?? config.type}"`).join(', ')}`,
    );
  const file = path.resolve(agent.directory, chosen.config.calibration);
  const before = await readFile(file, 'utf8').catch((error: unknown) => {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw error;
  });
  const document = parseDocument(before ?? '');
  examplesOf(document, file).add(document.createNode(exampleFromRun(agent, request)));
  await writeAtomically(file, document.toString());
  try {
    await loadLabelsFile(file, `evaluations.metrics[${chosen.index}]`);
  } catch (error) {
    await writeFile(file, before ?? '');
    throw error;
  }
  return { file, metric: chosen.config.name ?? chosen.config.type };
}
