/**
 * Which flavour of the API a path belongs to:
 * - `openai`: `/v1/...` (OpenAI, and the OpenAI-compatible APIs of Ollama, vLLM, LiteLLM);
 * - `azure-deployment`: `/openai/deployments/{deployment}/...?api-version=...`;
 * - `azure-v1`: Azure's v1 API, `/openai/v1/...`.
 */
export type OpenAIApi = 'openai' | 'azure-deployment' | 'azure-v1';

/** The endpoints the fake serves. */
export type OpenAIEndpoint = 'chat-completions' | 'embeddings';

/** Where a request goes, or why it goes nowhere. */
export type OpenAIRoute =
  | { matched: true; endpoint: OpenAIEndpoint; api: OpenAIApi; deployment: string | undefined }
  | { matched: false; hint: string | undefined };

const ENDPOINTS: Readonly<Record<string, OpenAIEndpoint>> = {
  'chat/completions': 'chat-completions',
  embeddings: 'embeddings',
};

const DEPLOYMENT_PATH = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/;

/** Advice for paths a client reaches by a common misconfiguration. */
function hintFor(pathname: string): string | undefined {
  if (pathname.endsWith('/responses')) {
    return 'the Responses API is not faked: use provider.chat(model) (createOpenAI()(model) and createAzure()(deployment) call the Responses API)';
  }
  if (pathname.endsWith('/completions') && !pathname.endsWith('/chat/completions')) {
    return 'the legacy Completions API is not faked: use provider.chat(model)';
  }
  if (pathname === '/openai/chat/completions' || pathname === '/openai/embeddings') {
    return '@ai-sdk/azure leaves out /v1 for hosts other than *.openai.azure.com: pass baseURL server.azureBaseUrl (…/openai/v1), or server.azureDeploymentsBaseUrl with useDeploymentBasedUrls: true';
  }
  if (pathname.startsWith('/api/')) {
    return "Ollama's native API is not faked: use its OpenAI-compatible API, baseURL server.baseUrl (…/v1)";
  }
  if (pathname.endsWith('/chat/completions') || pathname.endsWith('/embeddings')) {
    return 'OpenAI-compatible clients take a base URL ending in /v1: use server.baseUrl';
  }
  return undefined;
}

function deploymentName(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

/** Maps a method and path to an endpoint of the fake. Only POST is served. */
export function matchOpenAIRoute(method: string, pathname: string): OpenAIRoute {
  const route = matchPath(pathname);
  if (!route.matched) return route;
  if (method !== 'POST') return { matched: false, hint: `${pathname} takes POST, not ${method}` };
  return route;
}

function matchPath(pathname: string): OpenAIRoute {
  for (const [suffix, endpoint] of Object.entries(ENDPOINTS)) {
    if (pathname === `/v1/${suffix}`)
      return { matched: true, endpoint, api: 'openai', deployment: undefined };
    if (pathname === `/openai/v1/${suffix}`) {
      return { matched: true, endpoint, api: 'azure-v1', deployment: undefined };
    }
  }
  const deployment = DEPLOYMENT_PATH.exec(pathname);
  const encodedName = deployment?.[1];
  const suffix = deployment?.[2];
  const endpoint = suffix === undefined ? undefined : ENDPOINTS[suffix];
  const name = encodedName === undefined ? undefined : deploymentName(encodedName);
  if (endpoint !== undefined && name !== undefined && name !== '') {
    return { matched: true, endpoint, api: 'azure-deployment', deployment: name };
  }
  return { matched: false, hint: hintFor(pathname) };
}
