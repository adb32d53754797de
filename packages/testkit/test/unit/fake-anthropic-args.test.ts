import { describe, expect, it } from 'vitest';
import { parseFakeAnthropicArgs, UsageError } from '../../src/bin/parse-fake-anthropic-args.js';

// The bin's flags; the bin itself, as a process: test/e2e/fake-anthropic-bin.e2e.test.ts.

describe('parseFakeAnthropicArgs', () => {
  it('collects repeated --reply flags in order', () => {
    expect(
      parseFakeAnthropicArgs(['--port', '4100', '--reply', 'one', '--reply', 'two', '--latency-ms', '25']),
    ).toEqual({
      command: 'serve',
      port: 4100,
      replies: ['one', 'two'],
      latencyMs: 25,
      verbose: false,
    });
  });

  it('defaults to a free port, one default reply and no latency', () => {
    expect(parseFakeAnthropicArgs([])).toEqual({
      command: 'serve',
      port: 0,
      replies: ['Hello from fake-anthropic.'],
      latencyMs: 0,
      verbose: false,
    });
  });

  it.each([
    [['--port', 'abc'], '--port expects a whole number >= 0, got "abc"'],
    [['--port', '70000'], '--port must be at most 65535, got 70000'],
    [['--latency-ms=-5'], '--latency-ms expects a whole number >= 0, got "-5"'],
    [['--colour'], "Unknown option '--colour'"],
  ])('rejects %j with a message saying what to fix', (argv, message) => {
    expect(() => parseFakeAnthropicArgs(argv)).toThrow(UsageError);
    expect(() => parseFakeAnthropicArgs(argv)).toThrow(message);
  });
});
