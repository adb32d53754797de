import { apiError, lastUserText, reply, systemPromptText, toolNames, toolUse } from '@holodeck/testkit';
import { describe, expect, it } from 'vitest';
import { createE2eAgent, requestAt, TEST_API_KEY } from './support/e2e-agent.js';
import { invokeAgent, invokeE2eAgent } from './support/invoke-agent.js';
import { useFakeModel } from './support/use-fake-model.js';

// One fake server for the file; every test scripts its own steps and checks none are left.
const fake = useFakeModel();

describe('invokeOnce through the real CLI', () => {
  it('sends the instructions, model and message, offers no tools, and keeps thinking off', async () => {
    fake().script(reply('The answer is 4.'));
    const result = await invokeAgent(fake().url, 'What is 2+2?', {
      config: { model: { provider: 'anthropic', name: 'claude-haiku-4-5', max_tokens: 1234 } },
    });

    expect(result).toMatchObject({
      response: 'The answer is 4.',
      is_error: false,
      num_turns: 1,
      tool_calls: [],
    });
    expect(result.token_usage.total_tokens).toBe(
      result.token_usage.prompt_tokens + result.token_usage.completion_tokens,
    );
    expect(result.token_usage.completion_tokens).toBeGreaterThan(0);
    const request = requestAt(fake(), 0);
    expect(request.messagesBody?.model).toBe('claude-haiku-4-5');
    expect(systemPromptText(request)).toContain('You are the e2e test agent. Answer briefly.');
    expect(systemPromptText(request)).not.toContain('Claude Code');
    expect(JSON.stringify(request.messagesBody?.messages)).toContain('What is 2+2?');
    expect(toolNames(request)).toEqual([]);
    expect(request.body).toMatchObject({ thinking: { type: 'disabled' }, max_tokens: 1234 });
    expect(request.headers['x-api-key']).toBe(TEST_API_KEY);
  });

  it('offers exactly the built-in tools agent.yaml enables', async () => {
    fake().script(reply('ok'));
    await invokeAgent(fake().url, 'hi', {
      config: {
        claude: {
          file_system: { read: true, edit: true },
          bash: { enabled: true },
          web_search: true,
          subagents: { enabled: true },
        },
      },
    });
    expect(toolNames(requestAt(fake(), 0)).sort()).toEqual(
      ['Agent', 'Bash', 'Edit', 'Glob', 'Grep', 'Read', 'WebFetch', 'WebSearch'].sort(),
    );
  });

  it('narrows built-ins to claude.allowed_tools', async () => {
    fake().script(reply('ok'));
    await invokeAgent(fake().url, 'hi', {
      config: { claude: { file_system: { read: true, write: true }, allowed_tools: ['Read', 'Grep'] } },
    });
    expect(toolNames(requestAt(fake(), 0)).sort()).toEqual(['Grep', 'Read']);
  });

  it('turns extended thinking on with the configured budget', async () => {
    fake().script(reply('ok'));
    await invokeAgent(fake().url, 'think', {
      config: { claude: { extended_thinking: { enabled: true, budget_tokens: 4000 } } },
    });
    expect(fake().requests[0]?.body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 4000 } });
  });

  it('loads no Claude settings or CLAUDE.md unless setting_sources lists them', async () => {
    const files = { 'work/CLAUDE.md': 'Project memory: the secret handshake is 7-7-7.\n' };
    fake().script(reply('ok'), reply('ok'));
    await invokeAgent(fake().url, 'hi', { config: { claude: { working_directory: 'work' } }, files });
    await invokeAgent(fake().url, 'hi', {
      config: { claude: { working_directory: 'work', setting_sources: ['project'] } },
      files,
    });
    expect(JSON.stringify(fake().requests[0]?.body)).not.toContain('secret handshake');
    expect(JSON.stringify(fake().requests[1]?.body)).toContain('secret handshake');
  });

  it('authenticates with CLAUDE_CODE_OAUTH_TOKEN for auth_provider: oauth_token', async () => {
    fake().script(reply('ok'));
    const model = { provider: 'anthropic', name: 'claude-sonnet-4-5', auth_provider: 'oauth_token' };
    await invokeAgent(fake().url, 'hi', {
      config: { model },
      env: { CLAUDE_CODE_OAUTH_TOKEN: 'oauth-test-token' },
    });
    const headers = fake().requests[0]?.headers ?? {};
    expect(headers.authorization).toBe('Bearer oauth-test-token');
    expect(headers['x-api-key']).toBeUndefined();
  });

  it('hands prior conversation context to a fresh run as a transcript', async () => {
    fake().script(reply('You said blue.'));
    const result = await invokeE2eAgent(createE2eAgent(fake().url), 'Which colour did I pick?', [
      { role: 'user', content: 'I pick blue.' },
      { role: 'assistant', content: 'Noted.' },
    ]);
    expect(result.response).toBe('You said blue.');
    expect(lastUserText(requestAt(fake(), 0))).toContain(
      'Conversation so far:\nUser: I pick blue.\nAssistant: Noted.\n\nUser: Which colour did I pick?',
    );
  });

  it('reports max_turns as an error result', async () => {
    fake().script(toolUse('Read', { file_path: '/etc/hostname' }));
    const result = await invokeAgent(fake().url, 'read it', {
      config: { claude: { max_turns: 1, file_system: { read: true } } },
    });
    expect(result).toMatchObject({ is_error: true, error_reason: 'max_turns limit reached' });
  });

  it('names the credential variable when the API rejects the key', async () => {
    fake().script(apiError(401, { type: 'authentication_error', message: 'invalid x-api-key' }));
    const result = await invokeAgent(fake().url, 'hi');
    expect(result.is_error).toBe(true);
    expect(result.error_reason).toMatch(
      /^authentication failed: check ANTHROPIC_API_KEY \(auth_provider: api_key\)/,
    );
    expect(result.error_reason).not.toContain(TEST_API_KEY);
  });
});
