import { fileURLToPath } from 'node:url';

/** test/fixtures/reports, where the shipped report fixtures and the JUnit XSD live. */
export const REPORT_FIXTURES = fileURLToPath(new URL('../../../fixtures/reports/', import.meta.url));

/** The committed JSON Schema of the report. */
export const RUN_REPORT_SCHEMA_FILE = fileURLToPath(
  new URL('../../../../src/runner/report/run-report.schema.json', import.meta.url),
);

/** The message of what `action` throws (fails the test when it does not throw). */
export function thrownMessage(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('expected the action to throw');
}

/** The message of the error a promise rejects with. */
export async function rejectedMessage(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('expected the promise to reject');
}
