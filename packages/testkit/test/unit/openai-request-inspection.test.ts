import { describe, expect, it } from 'vitest';
import {
  chatLastUserText,
  chatMaxTokens,
  chatMessages,
  chatMessageText,
  chatResponseFormat,
  chatSystemText,
  chatTemperature,
  chatToolNames,
  chatToolResults,
  embeddingsInputs,
  type OpenAIRecordedRequest,
} from '../../src/index.js';
import { parseChatCompletionsBody } from '../../src/openai/chat-completions-body.js';
import { parseEmbeddingsBody } from '../../src/openai/embeddings-body.js';

function recorded(overrides: Partial<OpenAIRecordedRequest>): OpenAIRecordedRequest {
  return {
    sequence: 1,
    method: 'POST',
    path: '/v1/chat/completions',
    query: '',
    headers: {},
    body: undefined,
    rawBody: '',
    api: 'openai',
    deployment: undefined,
    apiVersion: undefined,
    chatBody: undefined,
    embeddingsBody: undefined,
    receivedAt: new Date(0),
    kind: 'chat',
    reason: 'test',
    ...overrides,
  };
}

function chatRequest(body: unknown): OpenAIRecordedRequest {
  const parsed = parseChatCompletionsBody(body, { modelRequired: true });
  if (!parsed.ok) throw new Error(parsed.message);
  return recorded({ body, chatBody: parsed.body });
}

const call = (id: string, name: string) => ({ id, type: 'function', function: { name, arguments: '{}' } });

describe('reading what a chat completions request sent', () => {
  const request = chatRequest({
    model: 'gpt-4o',
    temperature: 0,
    max_completion_tokens: 256,
    response_format: { type: 'json_schema', json_schema: { name: 'verdict', schema: { type: 'object' } } },
    tools: [
      { type: 'function', function: { name: 'search', parameters: { type: 'object' } } },
      { type: 'function', function: { name: 'fetch_page' } },
    ],
    messages: [
      { role: 'system', content: 'Rule one.' },
      { role: 'developer', content: [{ type: 'text', text: 'Rule two.' }] },
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: null, tool_calls: [call('c1', 'search'), call('c2', 'fetch_page')] },
      { role: 'tool', tool_call_id: 'c2', content: 'page text' },
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: [
          { type: 'text', text: 'hit 1' },
          { type: 'text', text: 'hit 2' },
        ],
      },
      { role: 'assistant', content: 'Found it.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'second' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } },
          { type: 'text', text: 'question' },
        ],
      },
    ],
  });

  it('gives the system text of system and developer messages, and the last user text', () => {
    expect(chatSystemText(request)).toBe('Rule one.\nRule two.');
    expect(chatLastUserText(request)).toBe('second\nquestion');
    expect(chatMessages(request).map((message) => message.role)).toEqual([
      'system',
      'developer',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'user',
    ]);
    const assistant = chatMessages(request)[6];
    expect(assistant === undefined ? undefined : chatMessageText(assistant)).toBe('Found it.');
  });

  it('pairs each tool result with the name of the call it answers, in the order sent', () => {
    expect(chatToolNames(request)).toEqual(['search', 'fetch_page']);
    expect(chatToolResults(request)).toEqual([
      { toolCallId: 'c2', toolName: 'fetch_page', text: 'page text' },
      { toolCallId: 'c1', toolName: 'search', text: 'hit 1\nhit 2' },
    ]);
  });

  it('gives response_format, temperature and the token limit field', () => {
    expect(chatResponseFormat(request)).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'verdict' },
    });
    expect(chatTemperature(request)).toBe(0);
    expect(chatMaxTokens(request)).toEqual({ field: 'max_completion_tokens', value: 256 });
  });

  it('answers empty values for a request without a chat body', () => {
    const other = recorded({ kind: 'unexpected' });
    expect([chatSystemText(other), chatLastUserText(other)]).toEqual(['', '']);
    expect([
      chatToolNames(other),
      chatToolResults(other),
      chatMessages(other),
      embeddingsInputs(other),
    ]).toEqual([[], [], [], []]);
    expect([chatResponseFormat(other), chatTemperature(other), chatMaxTokens(other)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

it('lists embeddings inputs given as one string or as a list', () => {
  for (const input of ['one', ['one', 'two']]) {
    const parsed = parseEmbeddingsBody({ model: 'm', input }, { modelRequired: true });
    if (!parsed.ok) throw new Error(parsed.message);
    const request = recorded({ kind: 'embeddings', embeddingsBody: parsed.body });
    expect(embeddingsInputs(request)).toEqual(typeof input === 'string' ? [input] : input);
  }
});
