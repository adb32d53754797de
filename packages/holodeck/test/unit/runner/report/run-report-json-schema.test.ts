import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { runReportJsonSchema } from '../../../../src/runner/report/run-report-json-schema.js';
import { mixedRun } from './report-builder.js';
import { REPORT_FIXTURES, RUN_REPORT_SCHEMA_FILE } from './report-paths.js';

const addFormats = addFormatsModule.default;

describe('runReportJsonSchema', () => {
  const schema = runReportJsonSchema();

  it('is the committed run-report.schema.json (regenerate with UPDATE_REPORT_SCHEMA=1)', () => {
    if (process.env.UPDATE_REPORT_SCHEMA === '1') {
      writeFileSync(RUN_REPORT_SCHEMA_FILE, `${JSON.stringify(schema, null, 2)}\n`);
    }
    expect(JSON.parse(readFileSync(RUN_REPORT_SCHEMA_FILE, 'utf8'))).toEqual(schema);
  });

  it('is a draft 2020-12 schema that pins schema_version and names the required fields', () => {
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'HoloDeck run report',
      type: 'object',
      properties: { schema_version: { const: 2 } },
      required: [
        'schema_version',
        'run_id',
        'started_at',
        'finished_at',
        'agent',
        'environment',
        'suite_cases',
        'options',
        'summary',
        'cases',
      ],
    });
  });

  it('accepts every shipped fixture and rejects a broken report, with ajv', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    // The JSON Schema describes the current version; format 1 files are read through an upgrade.
    for (const file of readdirSync(join(REPORT_FIXTURES, 'v2'))) {
      const data: unknown = JSON.parse(readFileSync(join(REPORT_FIXTURES, 'v2', file), 'utf8'));
      expect(validate(data), `${file}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    const broken = { ...mixedRun(), summary: { ...mixedRun().summary, passed: 'two' } };
    expect(validate(broken)).toBe(false);
    expect(validate({ ...mixedRun(), schema_version: 1 })).toBe(false);
  });
});
