import { z } from 'zod';
import { defineEvents, defineRequests } from './define';

/**
 * What kind of model API a provider speaks; decides which environment variables an agent gets
 * (see `core/providers/kinds.ts`): `anthropic` (ANTHROPIC_*), `openai` and `openai-compatible`
 * (OPENAI_*), `gemini` (GEMINI_API_KEY, GOOGLE_GEMINI_BASE_URL), `bedrock` and `vertex` (Claude
 * Code's CLAUDE_CODE_USE_BEDROCK / CLAUDE_CODE_USE_VERTEX).
 */
export const ProviderKind = z.enum(['anthropic', 'openai', 'openai-compatible', 'gemini', 'bedrock', 'vertex']);
export type ProviderKind = z.infer<typeof ProviderKind>;

/** Provider ids: lowercase letters, digits, `-` and `_`, starting with a letter or digit (used on the command line). */
export const ProviderId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'Use lowercase letters, digits, "-" or "_" (at most 64), e.g. "work-gateway".');

/** A provider the user defined. Its key never appears here: only whether one is stored and where. */
export const Provider = z.object({
  id: z.string(),
  name: z.string(),
  kind: ProviderKind,
  /** Base URL of the API (null = the kind's default endpoint). */
  baseUrl: z.string().nullable(),
  /** Extra HTTP headers sent with every request (names and values; never secret: keys go to the credential store). */
  headers: z.record(z.string(), z.string()),
  /** True when the credential store holds a key for this provider. */
  hasKey: z.boolean(),
  /** The last four characters of the stored key, to tell keys apart after a rotation; null without a key. */
  keyHint: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Provider = z.infer<typeof Provider>;

/** Where keys are kept on this machine, and the warning shown when that is a plain file. */
export const CredentialStoreInfo = z.object({
  /** `keychain` (the OS keychain / Secret Service), `safeStorage` (Electron, encrypted with the OS), `file` (a 0600 file), `memory` (tests). */
  backend: z.enum(['keychain', 'safeStorage', 'file', 'memory']),
  /** One line for people: "macOS Keychain", "/home/me/.local/share/atrium/credentials.json (mode 0600)". */
  label: z.string(),
  /** Shown whenever keys are entered when the store is not an OS keychain; null otherwise. */
  warning: z.string().nullable(),
});
export type CredentialStoreInfo = z.infer<typeof CredentialStoreInfo>;

/** A workspace's choice for one agent: which provider, which model, which mode new sessions start with. */
export const AgentSetting = z.object({
  workspaceId: z.string(),
  agentId: z.string(),
  /** Null = the agent keeps the environment Atrium was started with (no provider). */
  providerId: z.string().nullable(),
  model: z.string().nullable(),
  modeId: z.string().nullable(),
  /** The endpoint this workspace's sessions of the agent would talk to now (override, provider URL, or the kind's default); null without a provider. */
  endpoint: z.string().nullable(),
  updatedAt: z.string(),
});
export type AgentSetting = z.infer<typeof AgentSetting>;

/**
 * A model endpoint definition a repository supplies (`env` of `.claude/settings*.json`,
 * `.codex/config.toml` `model_provider(s)`, `.gemini/settings.json` model settings, `.env`
 * files). `digest` covers exactly `variables` and the file; approving it lets Atrium send
 * credentials there.
 */
export const RepositoryEndpoint = z.object({
  /** Workspace-relative POSIX path of the file. */
  path: z.string(),
  /** Which tool reads the file: `claude`, `codex`, `gemini`, `dotenv`. */
  tool: z.string(),
  /** The model-traffic settings it makes (names and values; keys in it are never shown). */
  variables: z.record(z.string(), z.string()),
  /** sha256 (hex) of the definition. */
  digest: z.string(),
  approved: z.boolean(),
  /**
   * `atrium`: Atrium applies it to the agent itself (after trust and approval); `agent`: the
   * agent reads the file by itself once the folder is trusted (the new-session dialog says so);
   * `none`: nothing reads it under Atrium's launch.
   */
  appliedBy: z.enum(['atrium', 'agent', 'none']),
});
export type RepositoryEndpoint = z.infer<typeof RepositoryEndpoint>;

/** What a session started with (recorded at creation; later changes never alter it). Never holds a key. */
export const SessionEndpoint = z.object({
  sessionId: z.string(),
  providerId: z.string().nullable(),
  providerName: z.string().nullable(),
  kind: ProviderKind.nullable(),
  /** The URL the agent's model traffic goes to; null = the agent's own default (no provider). */
  endpoint: z.string().nullable(),
  model: z.string().nullable(),
  modeId: z.string().nullable(),
  /** `provider`, `repository` (an approved repository definition), or `inherited` (Atrium's own environment). */
  source: z.enum(['provider', 'repository', 'inherited']),
  /** The repository definition applied (approved) or withheld (not approved), with its digest. */
  repository: z.object({ path: z.string(), digest: z.string(), applied: z.boolean() }).nullable(),
  createdAt: z.string(),
});
export type SessionEndpoint = z.infer<typeof SessionEndpoint>;

const ProviderInput = z.object({
  id: ProviderId,
  name: z.string().trim().min(1).max(200).optional(),
  kind: ProviderKind,
  baseUrl: z.string().url().nullable().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** Needed to change an existing provider's kind (its key is deleted; the base URL is the one given now). */
  replace: z.boolean().optional(),
});

export const providerRequests = defineRequests({
  'providers.list': {
    description: 'Every provider (without keys) and where keys are kept.',
    params: z.object({}),
    result: z.object({ providers: z.array(Provider), store: CredentialStoreInfo }),
  },
  'providers.save': {
    description: 'Adds a provider, or updates the one with this id (sessions already created keep what they started with). `openai-compatible` needs a base URL; changing the kind of an existing provider needs `replace`.',
    params: ProviderInput,
    result: z.object({ provider: Provider, created: z.boolean() }),
  },
  'providers.remove': {
    description: 'Removes a provider, its key and its workspace overrides. Refused while workspace agent settings choose it unless `force` (those agents then start with the environment Atrium was started with).',
    params: z.object({ id: z.string(), force: z.boolean().optional() }),
    result: z.object({ removed: z.boolean() }),
  },
  'providers.test': {
    description: 'Lists models at the provider\'s endpoint with its key (GET …/models) and says whether that worked.',
    params: z.object({ id: z.string(), workspaceId: z.string().optional() }),
    result: z.object({ ok: z.boolean(), endpoint: z.string(), status: z.number().int().nullable(), message: z.string() }),
  },
  'providers.setKey': {
    description: 'Stores (or rotates) the provider\'s key in the credential store; the key is never returned.',
    params: z.object({ id: z.string(), key: z.string().min(1) }),
    result: z.object({ provider: Provider, store: CredentialStoreInfo }),
  },
  'providers.removeKey': {
    description: 'Deletes the provider\'s key from the credential store.',
    params: z.object({ id: z.string() }),
    result: z.object({ provider: Provider, removed: z.boolean() }),
  },
  'providers.setOverride': {
    description: 'Points a provider at another base URL in one workspace (null removes the override).',
    params: z.object({ workspaceId: z.string(), providerId: z.string(), baseUrl: z.string().url().nullable() }),
    result: z.object({ settings: z.array(AgentSetting) }),
  },
  'providers.agentSettings': {
    description: 'A workspace\'s per-agent provider, model and mode, and the model endpoints its repository supplies.',
    params: z.object({ workspaceId: z.string() }),
    result: z.object({ settings: z.array(AgentSetting), overrides: z.array(z.object({ providerId: z.string(), baseUrl: z.string() })), endpoints: z.array(RepositoryEndpoint) }),
  },
  'providers.setAgentSettings': {
    description: 'Sets a workspace\'s provider, model and mode for one agent (null clears each); new sessions use them.',
    params: z.object({ workspaceId: z.string(), agentId: z.string(), providerId: z.string().nullable(), model: z.string().trim().max(200).nullable(), modeId: z.string().nullable().optional() }),
    result: z.object({ setting: AgentSetting }),
  },
  'providers.approveEndpoint': {
    description: 'Approves (or with `approved: false` revokes) one repository endpoint definition by digest.',
    params: z.object({ workspaceId: z.string(), digest: z.string().regex(/^[0-9a-f]{64}$/), approved: z.boolean().default(true) }),
    result: z.object({ endpoints: z.array(RepositoryEndpoint) }),
  },
  'providers.sessionEndpoint': {
    description: 'The provider, endpoint and model a session started with, or null when it has no record (started before providers existed).',
    params: z.object({ sessionId: z.string() }),
    result: z.object({ endpoint: SessionEndpoint.nullable() }),
  },
});

export const providerEvents = defineEvents({
  providersChanged: {
    description: 'Providers, keys, overrides, agent settings or endpoint approvals changed.',
    payload: z.object({ workspaceId: z.string().nullable() }),
  },
});
