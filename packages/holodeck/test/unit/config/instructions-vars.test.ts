import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../../src/config/index.js';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from './agent-sandbox.js';

// {{ var }} in the instructions, inline and from a file: rendered from instructions.vars with the
// test cases' template language; a placeholder without its variable is an error naming it.

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

const HEAD = BASE.slice(0, 4);

describe('instructions.vars', () => {
  it('renders inline instructions and a file, filters included', async () => {
    const inline = lines(
      ...HEAD,
      'instructions:',
      '  inline: "You work for {{ company }} in {{ city | upper }}."',
      '  vars: { company: Acme, city: Oslo }',
    );
    await sandbox.write('agent.yaml', inline);
    const loaded = await loadAgentConfig(sandbox.agentFile, { env: {}, homeDir: sandbox.home });
    expect(loaded.instructions).toBe('You work for Acme in OSLO.');

    await sandbox.write('prompt.md', 'Orders of {{ shop.name }}.\nWrite {{ "{{" }} literally.\n');
    const fromFile = lines(
      ...HEAD,
      'instructions:',
      '  file: prompt.md',
      '  vars:',
      '    shop: { name: Kiosk }',
    );
    await sandbox.write('agent.yaml', fromFile);
    const again = await loadAgentConfig(sandbox.agentFile, { env: {}, homeDir: sandbox.home });
    expect(again.instructions).toBe('Orders of Kiosk.\nWrite {{ literally.\n');
  });

  it('names a missing variable at instructions.inline', async () => {
    const yaml = lines(
      ...HEAD,
      'instructions:',
      '  inline: "Hello {{ company }}"',
      '  vars: { compny: Acme }',
    );
    const result = await sandbox.validate(yaml);
    expect(result.issues.map(brief)).toEqual([
      '6:11 instructions.inline: {{ company }} names variable "company", which instructions.vars does not set | add company to instructions.vars in agent.yaml; instructions.vars has compny',
    ]);
  });

  it("names a missing variable at the instructions file's line and column", async () => {
    await sandbox.write('prompt.md', 'You are helpful.\nThe shop is  {{ shop }}.\n');
    const result = await sandbox.validate(lines(...HEAD, 'instructions:', '  file: prompt.md'));
    expect(result.issues.map((issue) => `${issue.file}:${brief(issue)}`)).toEqual([
      `${sandbox.dir}/prompt.md:2:14 instructions.file: {{ shop }} names variable "shop", which instructions.vars does not set | add shop to instructions.vars in agent.yaml; instructions.vars is not set`,
    ]);
  });

  it('rejects a variable name a placeholder cannot name', async () => {
    const yaml = lines(...HEAD, 'instructions:', '  inline: Hi', '  vars: { 1st: x }');
    const result = await sandbox.validate(yaml);
    expect(result.issues.map(brief)).toEqual([
      '7:16 instructions.vars.1st: variable name "1st" is not letters, digits and _ (not starting with a digit) | {{ name }} placeholders can only name such variables: rename it, e.g. order_id',
    ]);
  });
});
