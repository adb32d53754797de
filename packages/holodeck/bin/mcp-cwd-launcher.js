#!/usr/bin/env node
// Starts a stdio MCP server in a given folder: `node mcp-cwd-launcher.js <cwd> <command> [args...]`.
// The CLI's stdio MCP config has no working-directory field, so agent.yaml's `cwd` of an MCP
// tool is honoured by launching the server through this shim. stdio is inherited, so the
// MCP messages flow straight through; exit code and signals are forwarded.
import { spawn } from 'node:child_process';

const [cwd, command, ...args] = process.argv.slice(2);
if (!cwd || !command) {
  process.stderr.write('usage: mcp-cwd-launcher <cwd> <command> [args...]\n');
  process.exit(2);
}
const child = spawn(command, args, { cwd, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('error', (error) => {
  process.stderr.write(`cannot start MCP server ${command} in ${cwd}: ${error.message}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
