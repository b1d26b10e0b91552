import type { ProviderKind } from '../../../shared/contract';

/** The environment variables a provider kind sets on an agent (names as the agents read them). */
export interface KindVariables {
  /** Where the key goes; null when the kind authenticates otherwise (Vertex: Google credentials). */
  key: string | null;
  /** Where the base URL goes. */
  baseUrl: string;
  /** Where the default model goes when the agent reads one from its environment; null when none. */
  model: string | null;
  /** Where extra headers go ("Name: value" lines), or null when the agent reads none. */
  headers: string | null;
  /** Always set with this kind (e.g. CLAUDE_CODE_USE_BEDROCK=1). */
  fixed: Record<string, string>;
  /** The endpoint used when the provider names none. */
  defaultUrl: string;
  /** Path of the model listing below the base URL ("test connection"), and how the key is sent there. */
  models: { path: string; auth: 'x-api-key' | 'bearer' | 'goog' | 'none' };
}

/**
 * Per kind, the variables of the agents that speak it: Claude Code (`ANTHROPIC_API_KEY`,
 * `ANTHROPIC_BASE_URL`, `ANTHROPIC_MODEL`, `ANTHROPIC_CUSTOM_HEADERS`; Bedrock and Vertex through
 * `CLAUDE_CODE_USE_BEDROCK` / `CLAUDE_CODE_USE_VERTEX`), Codex and OpenAI-compatible tools
 * (`OPENAI_API_KEY`, `OPENAI_BASE_URL`), Gemini CLI (`GEMINI_API_KEY`, `GOOGLE_GEMINI_BASE_URL`,
 * `GEMINI_MODEL`).
 */
export const KIND_VARIABLES: Record<ProviderKind, KindVariables> = {
  anthropic: { key: 'ANTHROPIC_API_KEY', baseUrl: 'ANTHROPIC_BASE_URL', model: 'ANTHROPIC_MODEL', headers: 'ANTHROPIC_CUSTOM_HEADERS', fixed: {}, defaultUrl: 'https://api.anthropic.com', models: { path: '/v1/models', auth: 'x-api-key' } },
  openai: { key: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL', model: null, headers: null, fixed: {}, defaultUrl: 'https://api.openai.com/v1', models: { path: '/models', auth: 'bearer' } },
  'openai-compatible': { key: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL', model: null, headers: null, fixed: {}, defaultUrl: 'http://127.0.0.1:11434/v1', models: { path: '/models', auth: 'bearer' } },
  gemini: { key: 'GEMINI_API_KEY', baseUrl: 'GOOGLE_GEMINI_BASE_URL', model: 'GEMINI_MODEL', headers: null, fixed: {}, defaultUrl: 'https://generativelanguage.googleapis.com', models: { path: '/v1beta/models', auth: 'goog' } },
  bedrock: { key: 'AWS_BEARER_TOKEN_BEDROCK', baseUrl: 'ANTHROPIC_BEDROCK_BASE_URL', model: 'ANTHROPIC_MODEL', headers: 'ANTHROPIC_CUSTOM_HEADERS', fixed: { CLAUDE_CODE_USE_BEDROCK: '1' }, defaultUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com', models: { path: '', auth: 'none' } },
  vertex: { key: null, baseUrl: 'ANTHROPIC_VERTEX_BASE_URL', model: 'ANTHROPIC_MODEL', headers: 'ANTHROPIC_CUSTOM_HEADERS', fixed: { CLAUDE_CODE_USE_VERTEX: '1' }, defaultUrl: 'https://us-east5-aiplatform.googleapis.com/v1', models: { path: '', auth: 'none' } },
};

/**
 * Variables that carry model credentials or say where model traffic goes. When a session has a
 * provider, every one of them is removed from what the agent would inherit before the provider's
 * own are set, so a key or URL from Atrium's environment never leaks to another endpoint.
 */
export const MODEL_TRAFFIC_VARIABLES: readonly string[] = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_MODEL',
  'ANTHROPIC_SMALL_FAST_MODEL',
  'ANTHROPIC_DEFAULT_HAIKU_MODEL',
  'ANTHROPIC_DEFAULT_SONNET_MODEL',
  'ANTHROPIC_DEFAULT_OPUS_MODEL',
  'ANTHROPIC_CUSTOM_HEADERS',
  'ANTHROPIC_BEDROCK_BASE_URL',
  'ANTHROPIC_VERTEX_BASE_URL',
  'AWS_BEARER_TOKEN_BEDROCK',
  'CLAUDE_CODE_USE_BEDROCK',
  'CLAUDE_CODE_USE_VERTEX',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_API_BASE',
  'CODEX_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GEMINI_BASE_URL',
  'GEMINI_MODEL',
  'GOOGLE_GENAI_USE_VERTEXAI',
];

/**
 * True when an environment variable a repository sets redirects model traffic or carries model
 * credentials (the list above, any `*_BASE_URL`, `*_API_KEY`, `*_AUTH_TOKEN`): the trust review
 * marks it, and Atrium applies such a definition only after the user approves it by digest.
 */
export function redirectsModelTraffic(name: string): boolean {
  return MODEL_TRAFFIC_VARIABLES.includes(name) || /(_BASE_URL|_API_BASE|_API_KEY|_AUTH_TOKEN)$/.test(name);
}

/** True when the variable holds a secret (never shown, never applied from a repository). */
export function isSecretVariable(name: string): boolean {
  return /(_API_KEY|_AUTH_TOKEN|_TOKEN_BEDROCK|SECRET|PASSWORD)/.test(name);
}

/** Header map as `ANTHROPIC_CUSTOM_HEADERS` reads it: one "Name: value" per line. */
export function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}
