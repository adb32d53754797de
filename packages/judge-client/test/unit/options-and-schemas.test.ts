import { describe, expect, it } from 'vitest';
import { createStructuredClient } from '../../src/create-structured-client.js';
import type { StructuredClientOptions } from '../../src/structured-client-options.js';
import {
  clientError,
  request,
  SECRET,
  thrownError,
  toolCallCompletion,
  visibleText,
} from '../support/fixtures.js';

/** A fetch that must never be called: these problems are found before any request. */
const noFetch: typeof fetch = async () => {
  throw new Error('unexpected request');
};

const options = (overrides: Record<string, unknown> = {}): StructuredClientOptions =>
  ({
    provider: 'openai',
    model: 'gpt-judge',
    env: { OPENAI_API_KEY: SECRET },
    fetch: noFetch,
    ...overrides,
  }) as StructuredClientOptions;

describe('options', () => {
  it('refuses an unknown provider', () => {
    const error = thrownError(() => createStructuredClient(options({ provider: 'bedrock' })));
    expect(error.code).toBe('configuration');
    expect(error.message).toBe(
      'invalid judge model settings: provider: expected one of anthropic, openai, azure_openai, ollama',
    );
  });

  it('lists every problem at once', () => {
    const error = thrownError(() =>
      createStructuredClient(
        options({ model: ' ', endpoint: 'ftp://example.com', timeoutMs: 0, maxRetries: 1.5 }),
      ),
    );
    expect(error.message).toBe(
      'invalid judge model settings: model: must not be empty; endpoint: expected an http(s) URL; ' +
        'timeoutMs: Too small: expected number to be >0; maxRetries: Invalid input: expected int, received number',
    );
  });

  it('never shows an apiKey passed with bad settings', () => {
    const error = thrownError(() => createStructuredClient(options({ apiKey: SECRET, maxTokens: -1 })));
    expect(error.message).toBe(
      'invalid judge model settings: maxTokens: Too small: expected number to be >0',
    );
    expect(visibleText(error)).not.toContain(SECRET);
  });

  it('reads credentials from process.env when no env is given', () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const error = thrownError(() => createStructuredClient({ provider: 'openai', model: 'gpt-judge' }));
      expect(error.variable).toBe('OPENAI_API_KEY');
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  it('exposes the provider and the model', () => {
    const client = createStructuredClient(options());
    expect([client.provider, client.model]).toEqual(['openai', 'gpt-judge']);
  });
});

describe('requests and answer schemas', () => {
  it('refuses a tool name providers would reject, before any request', async () => {
    const error = await clientError(
      createStructuredClient(options()).ask({ ...request, toolName: 'submit verdict' }),
    );
    expect(error.code).toBe('configuration');
    expect(error.message).toBe(
      'the tool name "submit verdict" is not valid: use 1 to 64 letters, digits, _ or -',
    );
  });

  it('refuses an answer schema ajv cannot compile, before any request', async () => {
    const error = await clientError(
      createStructuredClient(options()).ask({
        ...request,
        schema: { type: 'object', properties: { score: { type: 'float' } } },
      }),
    );
    expect(error.code).toBe('configuration');
    expect(error.message).toBe(
      'the answer schema of submit_verdict is not a valid JSON Schema: schema is invalid: ' +
        'data/properties/score/type must be equal to one of the allowed values, ' +
        'data/properties/score/type must be array, data/properties/score/type must match a schema in anyOf',
    );
  });

  it('refuses an unsupported $schema draft', async () => {
    const draft04 = { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' };
    const error = await clientError(createStructuredClient(options()).ask({ ...request, schema: draft04 }));
    expect(error.message).toBe(
      'the answer schema of submit_verdict names an unsupported $schema "http://json-schema.org/draft-04/schema#": use 2020-12, 2019-09 or draft-07',
    );
  });

  it('validates with the draft the schema names, and checks formats', async () => {
    const answers = [{ when: 'not a date' }, { when: '2026-05-01' }];
    const fetchAnswer: typeof fetch = async () =>
      new Response(JSON.stringify(toolCallCompletion('submit_verdict', answers.shift() ?? {})), {
        status: 200,
      });
    const client = createStructuredClient(options({ fetch: fetchAnswer }));
    const draft07 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { when: { type: 'string', format: 'date' } },
      required: ['when'],
    };
    const error = await clientError(client.ask({ ...request, schema: draft07 }));
    expect(error.message).toBe(
      'the judge\'s submit_verdict input does not match its schema: /when must match format "date". It sent: {"when":"not a date"}',
    );
    await expect(client.ask({ ...request, schema: draft07 })).resolves.toEqual({ when: '2026-05-01' });
  });
});
