import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStructuredClient } from '../../src/create-structured-client.js';
import type { StructuredClientOptions } from '../../src/structured-client-options.js';
import {
  clientError,
  request,
  SECRET,
  schema,
  textCompletion,
  thrownError,
  toolCallCompletion,
  visibleText,
} from '../support/fixtures.js';
import { type ScriptedServer, startScriptedServer } from '../support/scripted-server.js';

let server: ScriptedServer;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterEach(() => {
  server.assertComplete();
  server.reset();
});
afterAll(async () => {
  await server.close();
});

const verdict = toolCallCompletion('submit_verdict', { reason: 'fine', score: 4 });

/** What every Chat Completions request carries, whatever the provider. */
function expectedBody(model: string, tokenLimit: 'max_completion_tokens' | 'max_tokens', maxTokens = 4096) {
  return {
    model,
    messages: [
      { role: 'system', content: 'You grade.' },
      { role: 'user', content: request.prompt },
    ],
    temperature: 0,
    [tokenLimit]: maxTokens,
    tools: [
      {
        type: 'function',
        function: { name: 'submit_verdict', description: 'Submit your verdict.', parameters: schema },
      },
    ],
    tool_choice: { type: 'function', function: { name: 'submit_verdict' } },
  };
}

const openai = (options: Partial<StructuredClientOptions> = {}) =>
  createStructuredClient({
    provider: 'openai',
    model: 'gpt-judge',
    env: { OPENAI_API_KEY: SECRET, OPENAI_BASE_URL: `${server.url}/v1` },
    retryDelayMs: 5,
    ...options,
  });

describe('provider openai (Chat Completions)', () => {
  it('posts to OPENAI_BASE_URL/chat/completions with a bearer key and a forced function call', async () => {
    server.script({ body: verdict });
    await expect(openai().ask(request)).resolves.toEqual({ reason: 'fine', score: 4 });
    const [sent] = server.requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers['openai-organization']).toBeUndefined();
    expect(sent?.body).toEqual(expectedBody('gpt-judge', 'max_completion_tokens'));
  });

  it('prefers the endpoint and apiKey options, and sends the organization', async () => {
    server.script({ body: verdict });
    const client = openai({
      endpoint: `${server.url}/proxy/v1/`,
      apiKey: 'sk-option',
      organization: 'org-42',
      maxTokens: 500,
      env: { OPENAI_API_KEY: SECRET, OPENAI_BASE_URL: 'http://127.0.0.1:1' },
    });
    await client.ask(request);
    const [sent] = server.requests;
    expect(sent?.url).toBe('/proxy/v1/chat/completions');
    expect(sent?.headers.authorization).toBe('Bearer sk-option');
    expect(sent?.headers['openai-organization']).toBe('org-42');
    expect(sent?.body).toEqual(expectedBody('gpt-judge', 'max_completion_tokens', 500));
  });

  it('accepts arguments sent as an object by an OpenAI-compatible server', async () => {
    const objectArguments = {
      choices: [
        {
          finish_reason: 'tool_calls',
          message: {
            tool_calls: [{ function: { name: 'submit_verdict', arguments: { reason: 'b', score: 2 } } }],
          },
        },
      ],
    };
    server.script({ body: objectArguments });
    await expect(openai().ask(request)).resolves.toEqual({ reason: 'b', score: 2 });
  });

  it('refuses to start without a key, naming OPENAI_API_KEY', () => {
    const error = thrownError(() => openai({ env: {}, apiKeyLabel: 'api_key of evaluations.model' }));
    expect(error.code).toBe('credentials');
    expect(error.variable).toBe('OPENAI_API_KEY');
    expect(error.message).toBe(
      'the judge model (openai) needs an API key: set OPENAI_API_KEY or api_key of evaluations.model',
    );
  });

  it('refuses an answer without the tool call, quoting the text', async () => {
    server.script({ body: textCompletion('A solid 4 out of 5.') });
    const error = await clientError(openai().ask(request));
    expect(error.code).toBe('invalid-answer');
    expect(error.message).toBe('the judge did not call submit_verdict. It said: "A solid 4 out of 5.".');
  });

  it('quotes a refusal, and says when the answer was cut off', async () => {
    const refused = {
      choices: [
        {
          finish_reason: 'length',
          message: { role: 'assistant', content: null, refusal: 'I cannot grade this.' },
        },
      ],
    };
    server.script({ body: refused });
    const error = await clientError(openai({ maxTokens: 20 }).ask(request));
    expect(error.message).toBe(
      'the judge did not call submit_verdict. It said: "I cannot grade this.". ' +
        "The answer was cut off at max_tokens (20); raise the judge's max_tokens.",
    );
  });

  it('refuses arguments that are not JSON', async () => {
    server.script({
      body: toolCallCompletion('submit_verdict', '{"reason": "cut', { finishReason: 'length' }),
    });
    const error = await clientError(openai({ maxTokens: 8 }).ask(request));
    expect(error.code).toBe('invalid-answer');
    expect(error.message).toBe(
      'the judge\'s submit_verdict arguments are not JSON: "{\\"reason\\": \\"cut". ' +
        "The answer was cut off at max_tokens (8); raise the judge's max_tokens.",
    );
  });

  it('refuses arguments that are JSON but not an object', async () => {
    server.script({ body: toolCallCompletion('submit_verdict', '[4]') });
    const error = await clientError(openai().ask(request));
    expect(error.message).toBe("the judge's submit_verdict input is not a JSON object.");
  });

  it('refuses an answer that does not match the schema', async () => {
    server.script({ body: toolCallCompletion('submit_verdict', { reason: 'ok', score: 3, extra: true }) });
    const error = await clientError(openai().ask(request));
    expect(error.code).toBe('invalid-answer');
    expect(error.message).toBe(
      'the judge\'s submit_verdict input does not match its schema: (answer) must NOT have additional properties. It sent: {"reason":"ok","score":3,"extra":true}',
    );
  });

  it('refuses an answer that is not a Chat Completions response', async () => {
    server.script({ body: { choices: [] } });
    const error = await clientError(openai().ask(request));
    expect(error.message).toBe('the judge API answer is not a Chat Completions response (no choices)');
  });

  it('names OPENAI_API_KEY on a 401 and redacts the key the body echoes', async () => {
    const body = {
      error: {
        message: `Incorrect API key provided: ${SECRET}`,
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      },
    };
    server.script({ status: 401, body });
    const error = await clientError(openai().ask(request));
    expect(error.code).toBe('authentication');
    expect(error.variable).toBe('OPENAI_API_KEY');
    expect(error.message).toBe(
      'the judge API rejected the credentials (HTTP 401 invalid_request_error: Incorrect API key provided: [redacted]): check OPENAI_API_KEY',
    );
    expect(visibleText(error)).not.toContain(SECRET);
  });
});

const azure = (options: Partial<StructuredClientOptions> = {}) =>
  createStructuredClient({
    provider: 'azure_openai',
    model: 'gpt-4o',
    endpoint: server.url,
    env: { AZURE_OPENAI_API_KEY: SECRET },
    retryDelayMs: 5,
    ...options,
  });

describe('provider azure_openai', () => {
  it('posts to the deployment URL with api-version and the api-key header', async () => {
    server.script({ body: verdict });
    await expect(
      azure({ deployment: 'judge-deployment', apiVersion: '2025-01-01-preview' }).ask(request),
    ).resolves.toEqual({
      reason: 'fine',
      score: 4,
    });
    const [sent] = server.requests;
    expect(sent?.url).toBe(
      '/openai/deployments/judge-deployment/chat/completions?api-version=2025-01-01-preview',
    );
    expect(sent?.headers['api-key']).toBe(SECRET);
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.body).toEqual(expectedBody('gpt-4o', 'max_completion_tokens'));
  });

  it('defaults the deployment to the model and the api-version to 2024-10-21', async () => {
    server.script({ body: verdict });
    await azure({ endpoint: `${server.url}/`, apiKey: 'azure-option-key' }).ask(request);
    const [sent] = server.requests;
    expect(sent?.url).toBe('/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21');
    expect(sent?.headers['api-key']).toBe('azure-option-key');
  });

  it('refuses to start without an endpoint', () => {
    const error = thrownError(() => azure({ endpoint: undefined }));
    expect(error.code).toBe('configuration');
    expect(error.message).toBe(
      'the judge model (azure_openai) needs an endpoint, e.g. https://<your-resource>.openai.azure.com',
    );
  });

  it('refuses to start without a key, naming AZURE_OPENAI_API_KEY', () => {
    const error = thrownError(() => azure({ env: { OPENAI_API_KEY: SECRET } }));
    expect(error.code).toBe('credentials');
    expect(error.variable).toBe('AZURE_OPENAI_API_KEY');
    expect(error.message).toBe(
      'the judge model (azure_openai) needs an API key: set AZURE_OPENAI_API_KEY or the apiKey option',
    );
  });

  it('names AZURE_OPENAI_API_KEY on a 401, and hints at the deployment on a 404', async () => {
    server.script(
      {
        status: 401,
        body: { error: { code: '401', message: 'Access denied due to invalid subscription key.' } },
      },
      {
        status: 404,
        body: {
          error: {
            code: 'DeploymentNotFound',
            message: 'The API deployment for this resource does not exist.',
          },
        },
      },
    );
    const denied = await clientError(azure().ask(request));
    expect(denied.message).toBe(
      'the judge API rejected the credentials (HTTP 401 401: Access denied due to invalid subscription key.): check AZURE_OPENAI_API_KEY',
    );
    const missing = await clientError(azure().ask(request));
    expect(missing.code).toBe('http');
    expect(missing.message).toBe(
      'the judge request failed: HTTP 404 DeploymentNotFound: The API deployment for this resource does not exist. ' +
        '(check the deployment "gpt-4o", the endpoint and the api-version)',
    );
  });
});

describe('provider ollama', () => {
  it('posts to {endpoint}/v1/chat/completions without a key, with max_tokens', async () => {
    server.script({ body: verdict });
    const client = createStructuredClient({
      provider: 'ollama',
      model: 'llama3.1',
      endpoint: server.url,
      env: {},
    });
    await expect(client.ask(request)).resolves.toEqual({ reason: 'fine', score: 4 });
    const [sent] = server.requests;
    expect(sent?.url).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.headers['api-key']).toBeUndefined();
    expect(sent?.body).toEqual(expectedBody('llama3.1', 'max_tokens'));
  });

  it('keeps an endpoint that already ends in /v1', async () => {
    server.script({ body: verdict });
    await createStructuredClient({
      provider: 'ollama',
      model: 'llama3.1',
      endpoint: `${server.url}/v1/`,
      env: {},
    }).ask(request);
    expect(server.requests[0]?.url).toBe('/v1/chat/completions');
  });

  it('defaults to http://localhost:11434', async () => {
    const urls: string[] = [];
    const recordingFetch: typeof fetch = async (input) => {
      urls.push(String(input));
      return new Response(JSON.stringify(verdict), { status: 200 });
    };
    await createStructuredClient({
      provider: 'ollama',
      model: 'llama3.1',
      env: {},
      fetch: recordingFetch,
    }).ask(request);
    expect(urls).toEqual(['http://localhost:11434/v1/chat/completions']);
  });
});
