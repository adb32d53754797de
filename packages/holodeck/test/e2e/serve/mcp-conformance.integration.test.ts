import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from '../both-backends/backend-variants.js';
import { node22 } from '../support/node-22.js';
import { type ServeProcess, startServe } from './serve-harness.js';

// The official MCP conformance CLI (@modelcontextprotocol/conformance, which needs Node 22) against
// `/mcp` of `holodeck serve`, for the scenarios that apply to a server whose one tool is the agent:
// the handshake, ping, the tool list and DNS rebinding protection. The other scenarios call the
// reference server's own tools, resources, prompts, logging and completions, which an agent does
// not have, or need a stateful MCP session (server-sse-multiple-streams; /mcp is stateless: the
// conversation is the tool's session_id).
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];
const CONFORMANCE = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

describe.each(backendVariants())('holodeck serve: MCP conformance ($name backend)', (variant) => {
  let server: ServeProcess;
  let node: string;
  beforeAll(async () => {
    node = node22();
    await variant.start();
    server = await startServe(variant.agent({ description: 'Answers questions' }), ['--protocols', 'mcp']);
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    await variant.close();
  });

  it.each(SCENARIOS)('passes the %s scenario', async (scenario) => {
    const output = mkdtempSync(path.join(tmpdir(), 'mcp-conformance-'));
    await promisify(execFile)(
      node,
      [CONFORMANCE, 'server', '--url', `${server.url}/mcp`, '--scenario', scenario, '-o', output],
      { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`conformance ${scenario} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    });
    const [folder] = readdirSync(output);
    const checks = JSON.parse(
      readFileSync(path.join(output, folder as string, 'checks.json'), 'utf8'),
    ) as Check[];
    expect(checks.filter((check) => check.status === 'FAILURE')).toEqual([]);
    expect(checks.some((check) => check.status === 'SUCCESS')).toBe(true);
  });
});
