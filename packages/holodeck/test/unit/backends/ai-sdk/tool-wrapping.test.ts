import { describe, expect, it } from 'vitest';
import { buildStdioEnv } from '../../../../src/backends/ai-sdk/create-mcp-transport.js';
import { mcpResultText } from '../../../../src/backends/ai-sdk/mcp-result-text.js';
import type { RunGovernance } from '../../../../src/backends/ai-sdk/open-run-governance.js';
import { wrapToolExecute } from '../../../../src/backends/ai-sdk/wrap-tool-execute.js';
import type { HoloDeckTool } from '../../../../src/tools/index.js';

function holodeckTool(execute: HoloDeckTool['execute']): HoloDeckTool {
  return { name: 'lookup', description: 'Look up', inputSchema: { type: 'object' }, execute };
}

describe('wrapToolExecute', () => {
  it('passes the input and the run signal to the tool', async () => {
    const controller = new AbortController();
    const seen: unknown[] = [];
    const execute = wrapToolExecute(
      holodeckTool(async (input, options) => {
        seen.push(input, options?.signal);
        return { text: 'ok', isError: false };
      }),
    );
    expect(await execute({ id: 1 }, { signal: controller.signal })).toEqual({ text: 'ok', isError: false });
    expect(seen).toEqual([{ id: 1 }, controller.signal]);
  });

  it("hands a governed call to Novarch with the governed name, the signal, the call id and the model's text", async () => {
    const calls: unknown[] = [];
    // The model's text in the step of each call: the first call's step said something.
    const stepTexts = ['I will look order 1 up.', ''];
    const governance = {
      stepText: { current: () => stepTexts.shift() ?? '' },
      toolName: (name: string) => `mcp__holodeck_tools__${name}`,
      governor: {
        run: async (call: unknown, execute: () => Promise<unknown>) => {
          calls.push(call);
          return { kind: 'ran', output: await execute(), isError: false };
        },
      },
    } as unknown as RunGovernance;
    const execute = wrapToolExecute(
      holodeckTool(async () => ({ text: 'ok', isError: false })),
      governance,
    );
    const controller = new AbortController();
    expect(await execute({ id: 1 }, { signal: controller.signal, callId: 'call_7' })).toEqual({
      text: 'ok',
      isError: false,
    });
    await execute({ id: 2 }, {});
    expect(calls).toEqual([
      {
        toolName: 'mcp__holodeck_tools__lookup',
        input: { id: 1 },
        signal: controller.signal,
        callId: 'call_7',
        modelText: 'I will look order 1 up.',
      },
      { toolName: 'mcp__holodeck_tools__lookup', input: { id: 2 } },
    ]);
  });

  it('turns a tool that throws against its contract into an error result for the model', async () => {
    const execute = wrapToolExecute(
      holodeckTool(async () => {
        throw new Error('socket closed');
      }),
    );
    expect(await execute({}, {})).toEqual({ text: 'Tool "lookup" failed: socket closed', isError: true });
  });
});

describe('MCP helpers', () => {
  it('flattens tool results to text', () => {
    expect(
      mcpResultText({
        content: [
          { type: 'text', text: 'Echo: hi' },
          { type: 'image', data: '', mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'file:///a', text: 'file text' } },
        ],
      }),
    ).toBe('Echo: hi\n[image]\nfile text');
    expect(mcpResultText({ content: [], structuredContent: { sum: 3 } })).toBe('{"sum":3}');
    expect(mcpResultText({ toolResult: 7 })).toBe('7');
  });

  it('starts stdio servers with host basics and their own env, never the model keys', () => {
    const env = { PATH: '/bin', HOME: '/home/u', OPENAI_API_KEY: 'sk-x', AZURE_OPENAI_API_KEY: 'az' };
    expect(buildStdioEnv(env, { GREETING: 'hi', PATH: '/opt/bin' })).toEqual({
      PATH: '/opt/bin',
      HOME: '/home/u',
      GREETING: 'hi',
    });
  });
});
