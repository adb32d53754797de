import { z } from 'zod';
import { RunReportSchema } from './run-report-schema.js';

/**
 * JSON Schema (draft 2020-12) of the JSON run report, generated from the zod schema so the two
 * never drift. `run-report.schema.json` beside this file is its committed output; a unit test
 * fails when they differ. Objects allow extra keys (forward compatibility).
 */
export function runReportJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(RunReportSchema, { target: 'draft-2020-12', io: 'output' });
}
