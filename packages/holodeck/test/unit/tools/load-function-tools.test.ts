import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FunctionToolConfig } from '../../../src/config/index.js';
import { ConfigError } from '../../../src/errors.js';
import { loadFunctionTools } from '../../../src/tools/index.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'holodeck-tools-'));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

async function module(name: string, source: string): Promise<string> {
  const file = path.join(directory, name);
  await writeFile(file, source);
  return file;
}

function toolConfig(file: string, overrides: Partial<FunctionToolConfig> = {}): FunctionToolConfig {
  return {
    type: 'function',
    name: 'lookup',
    description: 'Looks up an order',
    file,
    parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    ...overrides,
  } as FunctionToolConfig;
}

const AGENT = '/agents/a/agent.yaml';

describe('function tools (src/tools)', () => {
  it('runs the export with its arguments and returns its result as text', async () => {
    const file = await module(
      't.mjs',
      'export const lookup = async ({ id }) => ({ id, status: "shipped" });',
    );
    const { tools } = await loadFunctionTools(AGENT, [{ index: 0, config: toolConfig(file) }]);
    expect(tools.map((tool) => [tool.name, tool.description, tool.inputSchema])).toEqual([
      ['lookup', 'Looks up an order', toolConfig(file).parameters],
    ]);
    expect(await tools[0]?.execute({ id: 'A-1' })).toEqual({
      text: '{"id":"A-1","status":"shipped"}',
      isError: false,
    });
  });

  it('refuses invalid arguments before the function runs, naming the field', async () => {
    const marker = path.join(directory, 'ran');
    const file = await module(
      't.mjs',
      `import { writeFileSync } from 'node:fs'; export const lookup = () => { writeFileSync(${JSON.stringify(marker)}, 'x'); return 'ok'; };`,
    );
    const { tools } = await loadFunctionTools(AGENT, [{ index: 0, config: toolConfig(file) }]);
    expect(await tools[0]?.execute({ id: 7 })).toEqual({
      text: 'Invalid arguments for "lookup": /id must be string',
      isError: true,
    });
    await expect(readFile(marker)).rejects.toThrow(/ENOENT/);
  });

  it('a timeout aborts the signal the tool was given, and answers the model at once', async () => {
    const log = path.join(directory, 'aborted');
    const file = await module(
      't.mjs',
      `import { writeFileSync } from 'node:fs';
       export const lookup = (_args, { signal }) => new Promise((resolve) => {
         signal.addEventListener('abort', () => { writeFileSync(${JSON.stringify(log)}, String(signal.reason.message)); resolve('late'); });
       });`,
    );
    const { tools } = await loadFunctionTools(AGENT, [
      { index: 0, config: toolConfig(file, { timeout: 0.05 }) },
    ]);
    expect(await tools[0]?.execute({ id: 'A-1' })).toEqual({
      text: 'Tool "lookup" timed out after 0.05 s',
      isError: true,
    });
    expect(await readFile(log, 'utf8')).toBe('tool "lookup" timed out after 0.05 s');
  });

  it("the caller's abort reaches the tool and ends the call", async () => {
    const file = await module(
      't.mjs',
      'export const lookup = (_a, { signal }) => new Promise((_r, reject) => signal.addEventListener("abort", () => reject(new Error("stopped"))));',
    );
    const { tools } = await loadFunctionTools(AGENT, [{ index: 0, config: toolConfig(file) }]);
    const controller = new AbortController();
    const pending = tools[0]?.execute({ id: 'A-1' }, { signal: controller.signal });
    controller.abort(new Error('Ctrl-C'));
    expect(await pending).toEqual({ text: 'Tool "lookup" was stopped: the run was aborted', isError: true });
  });

  it('a thrown error is an error result with its message', async () => {
    const file = await module('t.mjs', 'export function lookup() { throw new Error("database down"); }');
    const { tools } = await loadFunctionTools(AGENT, [{ index: 0, config: toolConfig(file) }]);
    expect(await tools[0]?.execute({ id: 'A-1' })).toEqual({
      text: 'Tool "lookup" failed: database down',
      isError: true,
    });
  });

  it("close() awaits the module's close() once, even for two tools of one module", async () => {
    const log = path.join(directory, 'closed');
    const file = await module(
      't.mjs',
      `import { appendFileSync } from 'node:fs';
       const timer = setInterval(() => {}, 1000);
       export const lookup = () => 'a';
       export const refund = () => 'b';
       export async function close() { clearInterval(timer); appendFileSync(${JSON.stringify(log)}, 'closed;'); }`,
    );
    const loaded = await loadFunctionTools(AGENT, [
      { index: 0, config: toolConfig(file) },
      { index: 1, config: toolConfig(file, { name: 'refund' }) },
    ]);
    await Promise.all([loaded.close(), loaded.close()]);
    await loaded.close();
    expect(await readFile(log, 'utf8')).toBe('closed;');
  });

  it('reports every module that cannot load or lacks the export, with its tools[i] path', async () => {
    const broken = await module('broken.mjs', 'export const x = ;');
    const other = await module('other.mjs', 'export const lookup_order = () => 1; export const y = 2;');
    const error = await loadFunctionTools(AGENT, [
      { index: 0, config: toolConfig(broken) },
      { index: 3, config: toolConfig(other) },
    ]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    const issues = (error as ConfigError).issues.map(
      (issue) => `${issue.path}: ${issue.message} | ${issue.hint}`,
    );
    expect(issues).toHaveLength(2);
    expect(issues[0]).toMatch(/^tools\[0\]\.file: cannot load function tool module .*broken\.mjs: /);
    expect(issues[1]).toBe(
      `tools[3].function: module ${other} has no exported function "lookup" | exported functions: lookup_order`,
    );
  });
});
