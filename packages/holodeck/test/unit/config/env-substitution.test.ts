// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} references
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateAgentFile } from '../../../src/config/index.js';
import { substituteString } from '../../../src/config/substitute-env-vars.js';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from './agent-sandbox.js';

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

describe('substituteString', () => {
  it('replaces ${VAR}, applies ${VAR:-default} when unset or empty, and unescapes $${', () => {
    const env = { HOST: 'example.com', EMPTY: '' };
    expect(substituteString('https://${HOST}/v1', env).value).toBe('https://example.com/v1');
    expect(substituteString('${PORT:-8080} ${EMPTY:-x} ${HOST:-y}', env).value).toBe('8080 x example.com');
    expect(substituteString('literal $${HOST} stays', env).value).toBe('literal ${HOST} stays');
    expect(substituteString('${MISSING}', env)).toEqual({
      value: '${MISSING}',
      referenced: ['MISSING'],
      unset: ['MISSING'],
      malformed: [],
    });
    expect(substituteString('${1BAD} and ${open', env).malformed).toEqual(['${1BAD}', '${open']);
  });

  it('returns any string without "${" unchanged', () => {
    const withoutReference = fc.string({ unit: 'binary' }).filter((text) => !text.includes('${'));
    fc.assert(
      fc.property(withoutReference, fc.dictionary(fc.string(), fc.string()), (text, env) => {
        const result = substituteString(text, env);
        return result.value === text && result.unset.length === 0 && result.malformed.length === 0;
      }),
    );
  });
});

describe('substitution in agent.yaml', () => {
  it('reports an unset variable at its line, naming where it can be set', async () => {
    const result = await sandbox.validate(lines(...BASE, 'description: Serves ${CUSTOMER}'));
    const sources = `${path.join(sandbox.dir, '.env')}, ${path.join(sandbox.home, '.holodeck', '.env')} or the environment`;
    expect(result.issues.map(brief)).toEqual([
      `7:14 description: environment variable "CUSTOMER" is not set | set CUSTOMER in ${sources}, or give a default: \${CUSTOMER:-value}`,
    ]);
  });

  it('reports an unset variable once, not again as a missing file', async () => {
    const result = await sandbox.validate(lines(...BASE.slice(0, 5), '  file: ${PROMPT_FILE}'));
    expect(result.issues.map((issue) => issue.message)).toEqual([
      'environment variable "PROMPT_FILE" is not set',
    ]);
  });

  it('ignores references inside YAML comments', async () => {
    const result = await sandbox.validate(
      lines('# uses ${NOT_SET} somewhere', ...BASE, 'author: me # ${ALSO_NOT_SET}'),
    );
    expect(result.issues).toEqual([]);
    expect(result.agent?.config.author).toBe('me');
  });

  it('keeps a value with a newline as one string: it cannot add keys', async () => {
    const injected = 'nice\nclaude:\n  permission_mode: acceptAll';
    const result = await sandbox.validate(lines(...BASE, 'description: ${DESCRIPTION}'), {
      DESCRIPTION: injected,
    });
    expect(result.issues).toEqual([]);
    expect(result.agent?.config.description).toBe(injected);
    expect(result.agent?.config.claude).toBeUndefined();
  });

  it('turns $${X} into a literal ${X}', async () => {
    const result = await sandbox.validate(lines(...BASE, 'description: costs $${PRICE}'), {});
    expect(result.agent?.config.description).toBe('costs ${PRICE}');
  });

  it('keeps substituted values as strings and says so on a type error', async () => {
    const yaml = lines(...BASE.slice(0, 4), '  max_tokens: ${MAX_TOKENS}', ...BASE.slice(4));
    const result = await sandbox.validate(yaml, { MAX_TOKENS: '100' });
    expect(result.issues.map(brief)).toEqual([
      '5:15 model.max_tokens: expected a number, got the string "100" | this value comes from an environment variable, and variables always give strings; write a number directly in agent.yaml',
    ]);
  });
});

describe('environment sources', () => {
  const yaml = lines(...BASE, 'description: ${A} ${B} ${C}');

  it('layers ~/.holodeck/.env < agent .env < process env', async () => {
    await sandbox.writeHome('.holodeck/.env', 'A=home\nB=home\nC=home\n');
    await sandbox.write('.env', 'B=agent\nC=agent\n');
    const processEnv = { C: 'process' };
    const result = await sandbox.validate(yaml, processEnv);
    expect(result.agent?.config.description).toBe('home agent process');
    expect(result.agent?.env).toMatchObject({ A: 'home', B: 'agent', C: 'process' });
    expect(processEnv).toEqual({ C: 'process' });
  });

  it('uses process.env by default and never writes to it', async () => {
    await sandbox.write('.env', 'HOLODECK_TEST_ONLY_IN_FILE=1\n');
    await sandbox.write('agent.yaml', lines(...BASE));
    const result = await validateAgentFile(sandbox.agentFile, { homeDir: sandbox.home });
    expect(result.agent?.env.HOLODECK_TEST_ONLY_IN_FILE).toBe('1');
    expect(result.agent?.env.PATH).toBe(process.env.PATH);
    expect(process.env.HOLODECK_TEST_ONLY_IN_FILE).toBeUndefined();
  });
});
