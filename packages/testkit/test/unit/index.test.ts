import { expect, it } from 'vitest';
import * as testkit from '../../src/index.js';

it('exports exactly the public API (no internals leak)', () => {
  expect(Object.keys(testkit).sort()).toEqual([
    'CLAUDE_CLI_USER_AGENT_PREFIX',
    'ENVIRONMENT_CONTEXT_MARKER',
    'FAKE_THINKING_SIGNATURE',
    'FORK_PROMPT_MARKERS',
    'apiError',
    'chatJson',
    'chatLastUserText',
    'chatMaxTokens',
    'chatMessage',
    'chatMessageText',
    'chatMessages',
    'chatReply',
    'chatRespond',
    'chatResponseFormat',
    'chatSystemText',
    'chatTemperature',
    'chatToolCall',
    'chatToolCalls',
    'chatToolNames',
    'chatToolResults',
    'classifyMessagesRequest',
    'denseVectorSpace',
    'embeddingsInputs',
    'embeddingsReply',
    'fakeCliEnv',
    'fakeEmbedding',
    'lastUserText',
    'message',
    'openaiError',
    'otlpAttribute',
    'reply',
    'respond',
    'slackSignature',
    'startFakeAnthropic',
    'startFakeOpenAI',
    'startFakeSlackApi',
    'startOtlpReceiver',
    'systemPromptText',
    'thinking',
    'toolNames',
    'toolResults',
    'toolUse',
    'toolUses',
    'waitUntil',
  ]);
});

it('fakeCliEnv lists everything the CLI needs, since the SDK env option replaces the environment', () => {
  expect(
    testkit.fakeCliEnv({ baseUrl: 'http://127.0.0.1:1', home: '/tmp/h', extra: { DEBUG: '1' } }),
  ).toEqual({
    PATH: process.env.PATH,
    HOME: '/tmp/h',
    ANTHROPIC_BASE_URL: 'http://127.0.0.1:1',
    ANTHROPIC_API_KEY: 'sk-test-fake',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
    IS_SANDBOX: '1',
    DEBUG: '1',
  });
});
