import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from './agent-sandbox.js';

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

describe('response_format', () => {
  it('accepts an inline JSON Schema and returns it', async () => {
    const result = await sandbox.validate(
      lines(...BASE, 'response_format:', '  type: object', '  properties:', '    answer: {type: string}'),
    );
    expect(result.issues).toEqual([]);
    expect(result.agent?.responseFormat).toEqual({
      type: 'object',
      properties: { answer: { type: 'string' } },
    });
  });

  it('loads a schema from a .json or .yaml file next to agent.yaml', async () => {
    await sandbox.write(
      'schemas/answer.yaml',
      lines('type: object', 'required: [answer]', 'properties:', '  answer: {type: string}'),
    );
    const result = await sandbox.validate(lines(...BASE, 'response_format: schemas/answer.yaml'));
    expect(result.issues).toEqual([]);
    expect(result.agent?.responseFormat).toEqual({
      type: 'object',
      required: ['answer'],
      properties: { answer: { type: 'string' } },
    });
    expect(result.agent?.config.response_format).toBe(`${sandbox.dir}/schemas/answer.yaml`);
  });

  it('honours a draft-07 $schema', async () => {
    const draft7 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: { x: { type: 'string' } },
    };
    await sandbox.write('answer.json', JSON.stringify(draft7));
    const result = await sandbox.validate(lines(...BASE, 'response_format: answer.json'));
    expect(result.issues).toEqual([]);
  });

  it('reports an invalid inline schema', async () => {
    const result = await sandbox.validate(lines(...BASE, 'response_format:', '  type: objekt'));
    expect(result.issues.map(brief)).toEqual([
      '7:1 response_format: not a valid JSON Schema: at /type: must be equal to one of the allowed values (array, boolean, integer, null, number, object, string) | see https://json-schema.org/understanding-json-schema',
    ]);
  });

  it('reports an invalid schema file, naming the file', async () => {
    const file = await sandbox.write('answer.json', '{"type": "object", "required": "answer"}');
    const result = await sandbox.validate(lines(...BASE, 'response_format: answer.json'));
    expect(result.issues.map(brief)).toEqual([
      `7:18 response_format: ${file} is not a valid JSON Schema: at /required: must be array | see https://json-schema.org/understanding-json-schema`,
    ]);
  });

  it('reports a missing file, unparsable JSON, a wrong extension and an unsupported draft', async () => {
    expect((await sandbox.validate(lines(...BASE, 'response_format: nope.json'))).issues.map(brief)).toEqual([
      `7:18 response_format: response_format file not found: ${sandbox.dir}/nope.json | create the file or fix the path; relative paths start from ${sandbox.dir}`,
    ]);
    const broken = await sandbox.write('broken.json', '{"type": ');
    // The JSON parser's own wording differs between Node versions; the frame around it is ours.
    const [parseIssue] = (await sandbox.validate(lines(...BASE, 'response_format: broken.json'))).issues.map(
      brief,
    );
    expect(parseIssue).toMatch(
      new RegExp(`^7:18 response_format: cannot parse ${broken}: .+ \\| fix the syntax of that file$`),
    );
    expect((await sandbox.validate(lines(...BASE, 'response_format: schema.txt'))).issues.map(brief)).toEqual(
      ['7:18 response_format: must be a path to a .json, .yaml or .yml file; got the string "schema.txt"'],
    );
    const draft4 = lines(
      ...BASE,
      'response_format:',
      '  $schema: http://json-schema.org/draft-04/schema#',
      '  type: object',
    );
    expect((await sandbox.validate(draft4)).issues.map(brief)).toEqual([
      '7:1 response_format: not a valid JSON Schema: $schema "http://json-schema.org/draft-04/schema#" is not supported | use draft 2020-12 (or 2019-09, draft-07)',
    ]);
  });

  it('rejects a value that is neither a schema nor a path', async () => {
    expect((await sandbox.validate(lines(...BASE, 'response_format: 3'))).issues.map(brief)).toEqual([
      '7:18 response_format: expected a mapping (key: value lines) or a string, got the number 3',
    ]);
  });
});
