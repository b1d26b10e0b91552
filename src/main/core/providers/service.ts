import type { AgentSetting, CredentialStoreInfo, Provider, ProviderKind, RepositoryEndpoint, SessionEndpoint } from '../../../shared/contract';
import { AtriumError } from '../../../shared/errors';
import type { CredentialStore } from '../credentials/store';
import type { EventBus } from '../events/bus';
import type { JournalEvent } from '../sessions/events';
import type { AttachInfo, HookContext, SessionHooks } from '../sessions/hooks';
import type { LaunchSpec } from '../sessions/supervisor';
import type { Store } from '../store/database';
import type { TrustGate } from '../trust/gate';
import type { WorkspaceService } from '../workspaces/service';
import { headerLines, isSecretVariable, KIND_VARIABLES, MODEL_TRAFFIC_VARIABLES } from '../credentials/modelVariables';
import { repositoryEndpoints, type EndpointDefinition } from './repository';

/** What the service needs from the rest of the engine. */
export interface ProviderServiceDeps {
  store: Store;
  bus: EventBus;
  workspaces: WorkspaceService;
  trustGate: TrustGate;
  /** The credential store, opened on first use (probing the keychain costs a write). */
  credentials: () => CredentialStore;
  /** The preset an agent id launches as (`claude`, `codex`, …), or null for an agent Atrium cannot identify. */
  presetOf: (agentId: string) => string | null;
  /** Every agent id Atrium knows (presets and user-defined agents); settings for any other id are refused. */
  agentIds: () => readonly string[];
  /** The provider kinds the agent can speak (from its preset), or null when Atrium cannot tell (any kind is accepted). */
  providerKindsOf: (agentId: string) => readonly ProviderKind[] | null;
}

/** A session's record as stored: the contract's {@link SessionEndpoint} plus what the launch needs (never a key). */
interface Snapshot extends Omit<SessionEndpoint, 'sessionId' | 'repository'> {
  /** Explicit base URL to set (override or provider URL); null = the agent's default for the kind. */
  baseUrl: string | null;
  headers: Record<string, string>;
  repository: { path: string; digest: string; applied: boolean; variables: Record<string, string> } | null;
}

interface ProviderRow {
  id: string;
  name: string;
  kind: ProviderKind;
  base_url: string | null;
  headers_json: string;
  key_hint: string | null;
  created_at: string;
  updated_at: string;
}

interface SettingRow {
  workspace_id: string;
  agent_id: string;
  provider_id: string | null;
  model: string | null;
  mode_id: string | null;
  updated_at: string;
}

function parseHeaders(json: string): Record<string, string> {
  try {
    const v = JSON.parse(json) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string')) as Record<string, string>;
  } catch {
    // a damaged column reads as no headers
  }
  return {};
}

/** A notice in a session's transcript (codes `provider`, `provider_no_key`, `repository_endpoint`, `provider_model`). */
function notice(severity: 'info' | 'warning', title: string, detail: string | null = null, code = 'provider'): JournalEvent {
  return { kind: 'policy_notice', data: { severity, code, title, detail } };
}

/**
 * Model providers, the shared credential store, per-workspace agent settings, repository endpoint
 * approvals, and what each session started with. Wired into the session runtime as hooks:
 * `onCreated` records the session's snapshot (provider, endpoint, model, mode; the repository
 * endpoint applied only when the folder is trusted and its definition approved by digest),
 * `beforeSpawn` gives the agent exactly its provider's variables (the key read from the store at
 * each start, so a rotated key is used by the next process) and redacts known keys from its
 * stderr, `afterAttach` selects the model and mode where the agent offers them over ACP.
 */
export class ProviderService {
  private store: CredentialStore | null = null;

  constructor(private readonly deps: ProviderServiceDeps) {}

  private get db() {
    return this.deps.store.db;
  }

  /** The credential store (opened once). */
  credentials(): CredentialStore {
    this.store ??= this.deps.credentials();
    return this.store;
  }

  /** Where keys are kept. */
  storeInfo(): CredentialStoreInfo {
    return this.credentials().info;
  }

  private toProvider(row: ProviderRow): Provider {
    return { id: row.id, name: row.name, kind: row.kind, baseUrl: row.base_url, headers: parseHeaders(row.headers_json), hasKey: row.key_hint !== null, keyHint: row.key_hint, createdAt: row.created_at, updatedAt: row.updated_at };
  }

  private row(id: string): ProviderRow | null {
    return (this.db.prepare('SELECT * FROM providers WHERE id = ?').get(id) as ProviderRow | undefined) ?? null;
  }

  /** Every provider, by name. */
  list(): Provider[] {
    return (this.db.prepare('SELECT * FROM providers ORDER BY name, id').all() as ProviderRow[]).map((r) => this.toProvider(r));
  }

  /** One provider. @throws AtriumError NOT_FOUND */
  get(id: string): Provider {
    const row = this.row(id);
    if (!row) throw new AtriumError('NOT_FOUND', `No provider "${id}". List them with \`atrium providers list\`.`);
    return this.toProvider(row);
  }

  /**
   * Adds a provider or updates the one with this id (name defaults to the id). Sessions already
   * created keep the endpoint they recorded. Changing an existing provider's kind needs
   * `replace: true`: its URL and key were meant for the old kind, so the replacement drops both
   * (the key is deleted and the base URL is the one given now).
   * @throws AtriumError INVALID_PARAMS (a base URL that is not http(s); `openai-compatible`
   *   without a base URL, since that kind has no endpoint of its own; a different kind without `replace`)
   */
  save(input: { id: string; name?: string; kind: ProviderKind; baseUrl?: string | null; headers?: Record<string, string>; replace?: boolean }): { provider: Provider; created: boolean } {
    const baseUrl = input.baseUrl ? checkUrl(input.baseUrl) : null;
    const now = new Date().toISOString();
    const existing = this.row(input.id);
    const kindChanges = existing !== null && existing.kind !== input.kind;
    if (kindChanges && !input.replace)
      throw new AtriumError(
        'INVALID_PARAMS',
        `Provider "${input.id}" exists with kind ${existing.kind}. Changing it to ${input.kind} would send its ${existing.kind} URL and key to a ${input.kind} agent: add it under another id, or replace it (\`--replace\`; its key is deleted and the base URL is the one you give now).`,
      );
    const effectiveUrl = existing && !kindChanges && input.baseUrl === undefined ? existing.base_url : baseUrl;
    if (input.kind === 'openai-compatible' && !effectiveUrl)
      throw new AtriumError('INVALID_PARAMS', 'An openai-compatible provider needs a base URL (it has no endpoint of its own), e.g. `--base-url http://127.0.0.1:11434/v1` for a local server.');
    if (existing) {
      if (kindChanges) this.dropKey(input.id);
      this.db
        .prepare('UPDATE providers SET name = ?, kind = ?, base_url = ?, headers_json = ?, key_hint = ?, updated_at = ? WHERE id = ?')
        .run(input.name ?? existing.name, input.kind, effectiveUrl, input.headers ? JSON.stringify(input.headers) : kindChanges ? '{}' : existing.headers_json, kindChanges ? null : existing.key_hint, now, input.id);
    } else {
      this.db.prepare('INSERT INTO providers (id, name, kind, base_url, headers_json, key_hint, created_at, updated_at) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)').run(input.id, input.name ?? input.id, input.kind, baseUrl, JSON.stringify(input.headers ?? {}), now, now);
    }
    this.changed(null);
    return { provider: this.get(input.id), created: !existing };
  }

  private dropKey(id: string): boolean {
    try {
      return this.credentials().remove(id);
    } catch {
      // a keychain that cannot be reached keeps an orphaned entry; nothing reads it without the provider's hint
      return false;
    }
  }

  /** The workspaces and agents whose settings choose this provider (workspace name, agent id). */
  usersOf(id: string): Array<{ workspaceId: string; workspaceName: string; agentId: string }> {
    const rows = this.db.prepare('SELECT workspace_id, agent_id FROM workspace_agent_settings WHERE provider_id = ? ORDER BY workspace_id, agent_id').all(id) as Array<{ workspace_id: string; agent_id: string }>;
    return rows.map((r) => {
      let workspaceName = r.workspace_id;
      try {
        workspaceName = this.deps.workspaces.get(r.workspace_id).name;
      } catch {
        // a workspace row that vanished keeps its id as its name
      }
      return { workspaceId: r.workspace_id, workspaceName, agentId: r.agent_id };
    });
  }

  /**
   * Removes a provider, its key, its overrides. When workspace agent settings choose it, refuses
   * unless `force`: those agents would then start with the environment Atrium was started with.
   * @throws AtriumError INVALID_PARAMS (in use, without `force`)
   */
  remove(id: string, force = false): boolean {
    if (!this.row(id)) return false;
    const users = this.usersOf(id);
    if (users.length && !force)
      throw new AtriumError(
        'INVALID_PARAMS',
        `Provider "${id}" is used by ${users.map((u) => `${u.agentId} in ${u.workspaceName}`).join(', ')}. Removing it makes those agents start with the environment Atrium was started with (its variables, its keys). Choose another provider for them first, or remove it anyway with \`--force\`.`,
      );
    this.dropKey(id);
    this.db.prepare('DELETE FROM providers WHERE id = ?').run(id);
    this.changed(null);
    return true;
  }

  /**
   * Stores or rotates a provider's key (the database keeps only its last four characters).
   * Running agents keep the key they started with; the next agent start reads the new one.
   * @throws AtriumError NOT_FOUND | INVALID_PARAMS (empty key) | CREDENTIALS_UNAVAILABLE
   */
  setKey(id: string, key: string): Provider {
    this.get(id);
    const secret = key.trim();
    if (!secret) throw new AtriumError('INVALID_PARAMS', 'The key is empty. Paste the key, or pipe it on stdin: `atrium credentials set PROVIDER < keyfile`.');
    try {
      this.credentials().set(id, secret);
    } catch (error) {
      throw new AtriumError('CREDENTIALS_UNAVAILABLE', `Cannot store the key in ${this.storeInfo().label}: ${(error as Error).message}`);
    }
    this.db.prepare('UPDATE providers SET key_hint = ?, updated_at = ? WHERE id = ?').run(secret.slice(-4), new Date().toISOString(), id);
    this.changed(null);
    return this.get(id);
  }

  /** Deletes a provider's key. @throws AtriumError NOT_FOUND */
  removeKey(id: string): { provider: Provider; removed: boolean } {
    this.get(id);
    let removed = false;
    try {
      removed = this.credentials().remove(id);
    } catch {
      removed = false;
    }
    this.db.prepare('UPDATE providers SET key_hint = NULL, updated_at = ? WHERE id = ?').run(new Date().toISOString(), id);
    this.changed(null);
    return { provider: this.get(id), removed };
  }

  /** The base URL a provider has in a workspace: the workspace's override, else its own, else null (the kind's default). */
  baseUrlIn(providerId: string, workspaceId: string | null): string | null {
    if (workspaceId) {
      const o = this.db.prepare('SELECT base_url FROM provider_overrides WHERE workspace_id = ? AND provider_id = ?').get(workspaceId, providerId) as { base_url: string } | undefined;
      if (o) return o.base_url;
    }
    return this.row(providerId)?.base_url ?? null;
  }

  /** Points a provider at another base URL in one workspace (null removes it). @throws AtriumError NOT_FOUND | INVALID_PARAMS */
  setOverride(workspaceId: string, providerId: string, baseUrl: string | null): AgentSetting[] {
    this.deps.workspaces.get(workspaceId);
    this.get(providerId);
    if (baseUrl === null) this.db.prepare('DELETE FROM provider_overrides WHERE workspace_id = ? AND provider_id = ?').run(workspaceId, providerId);
    else
      this.db
        .prepare('INSERT INTO provider_overrides (workspace_id, provider_id, base_url, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (workspace_id, provider_id) DO UPDATE SET base_url = excluded.base_url, updated_at = excluded.updated_at')
        .run(workspaceId, providerId, checkUrl(baseUrl), new Date().toISOString());
    this.changed(workspaceId);
    return this.settingsOf(workspaceId);
  }

  private toSetting(row: SettingRow): AgentSetting {
    const kind = row.provider_id ? this.row(row.provider_id)?.kind : undefined;
    const endpoint = row.provider_id && kind ? (this.baseUrlIn(row.provider_id, row.workspace_id) ?? KIND_VARIABLES[kind].defaultUrl) : null;
    return { workspaceId: row.workspace_id, agentId: row.agent_id, providerId: row.provider_id, model: row.model, modeId: row.mode_id, endpoint, updatedAt: row.updated_at };
  }

  /** A workspace's per-agent settings (only agents with a row). */
  settingsOf(workspaceId: string): AgentSetting[] {
    return (this.db.prepare('SELECT * FROM workspace_agent_settings WHERE workspace_id = ? ORDER BY agent_id').all(workspaceId) as SettingRow[]).map((r) => this.toSetting(r));
  }

  /** The workspace's settings for one agent, or null. */
  settingFor(workspaceId: string, agentId: string): AgentSetting | null {
    const row = this.db.prepare('SELECT * FROM workspace_agent_settings WHERE workspace_id = ? AND agent_id = ?').get(workspaceId, agentId) as SettingRow | undefined;
    return row ? this.toSetting(row) : null;
  }

  /** A workspace's settings, overrides and repository endpoints (the Agent settings panel). @throws AtriumError NOT_FOUND */
  agentSettings(workspaceId: string): { settings: AgentSetting[]; overrides: Array<{ providerId: string; baseUrl: string }>; endpoints: RepositoryEndpoint[] } {
    this.deps.workspaces.get(workspaceId);
    const overrides = (this.db.prepare('SELECT provider_id, base_url FROM provider_overrides WHERE workspace_id = ? ORDER BY provider_id').all(workspaceId) as Array<{ provider_id: string; base_url: string }>).map((o) => ({ providerId: o.provider_id, baseUrl: o.base_url }));
    return { settings: this.settingsOf(workspaceId), overrides, endpoints: this.endpoints(workspaceId) };
  }

  /**
   * Sets a workspace's provider, model and mode for one agent (all null removes the row). New
   * sessions use them; running ones keep what they started with.
   * @throws AtriumError NOT_FOUND (workspace or provider) | INVALID_PARAMS (an agent id Atrium
   *   does not know; a provider whose kind the agent's preset cannot speak, e.g. Claude with openai)
   */
  setAgentSettings(workspaceId: string, agentId: string, input: { providerId: string | null; model: string | null; modeId?: string | null }): AgentSetting {
    this.deps.workspaces.get(workspaceId);
    const known = this.deps.agentIds();
    if (!known.includes(agentId)) throw new AtriumError('INVALID_PARAMS', `Atrium knows no agent "${agentId}". Known agents: ${known.join(', ')} (see \`atrium agents list\`).`);
    if (input.providerId) {
      const provider = this.get(input.providerId);
      const kinds = this.deps.providerKindsOf(agentId);
      if (kinds && !kinds.includes(provider.kind))
        throw new AtriumError('INVALID_PARAMS', `${agentId} cannot use provider "${provider.id}": it speaks ${kinds.join(', ')}, not ${provider.kind}. Choose a provider of one of those kinds.`);
    }
    const model = input.model?.trim() || null;
    const current = this.settingFor(workspaceId, agentId);
    const modeId = input.modeId === undefined ? (current?.modeId ?? null) : input.modeId;
    const now = new Date().toISOString();
    this.db
      .prepare(
        `INSERT INTO workspace_agent_settings (workspace_id, agent_id, provider_id, model, mode_id, updated_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (workspace_id, agent_id) DO UPDATE SET provider_id = excluded.provider_id, model = excluded.model, mode_id = excluded.mode_id, updated_at = excluded.updated_at`,
      )
      .run(workspaceId, agentId, input.providerId, model, modeId, now);
    this.changed(workspaceId);
    return this.settingFor(workspaceId, agentId)!;
  }

  private approved(workspaceId: string, digest: string): boolean {
    return this.db.prepare('SELECT 1 FROM endpoint_approvals WHERE workspace_id = ? AND digest = ?').get(workspaceId, digest) !== undefined;
  }

  private definitionsOf(workspaceId: string): EndpointDefinition[] {
    const ws = this.deps.workspaces.get(workspaceId);
    return ws.missing ? [] : repositoryEndpoints(ws.path);
  }

  /** The model endpoint definitions the workspace's repository supplies, with their approval state. @throws AtriumError NOT_FOUND */
  endpoints(workspaceId: string): RepositoryEndpoint[] {
    return this.definitionsOf(workspaceId).map((d) => ({
      path: d.path,
      tool: d.tool,
      variables: d.variables,
      digest: d.digest,
      approved: this.approved(workspaceId, d.digest),
      appliedBy: d.appliedBy,
    }));
  }

  /**
   * Approves (or revokes) one repository endpoint definition by digest. Only a definition the
   * repository supplies now can be approved; the approval covers exactly its variables.
   * @throws AtriumError NOT_FOUND (workspace, or no current definition with this digest)
   */
  approveEndpoint(workspaceId: string, digest: string, approved = true): RepositoryEndpoint[] {
    if (!approved) {
      this.db.prepare('DELETE FROM endpoint_approvals WHERE workspace_id = ? AND digest = ?').run(workspaceId, digest);
    } else {
      const def = this.definitionsOf(workspaceId).find((d) => d.digest === digest);
      if (!def) throw new AtriumError('NOT_FOUND', `The repository supplies no model endpoint with digest ${digest} now (it may have changed). List them with \`atrium providers endpoints WORKSPACE\`.`);
      this.db
        .prepare('INSERT INTO endpoint_approvals (workspace_id, digest, definition_json, approved_at) VALUES (?, ?, ?, ?) ON CONFLICT (workspace_id, digest) DO NOTHING')
        .run(workspaceId, digest, JSON.stringify({ path: def.path, tool: def.tool, variables: def.variables }), new Date().toISOString());
    }
    this.changed(workspaceId);
    return this.endpoints(workspaceId);
  }

  /** What a session started with, or null (created before providers existed, or adopted). */
  sessionEndpoint(sessionId: string): SessionEndpoint | null {
    const snap = this.snapshot(sessionId);
    if (!snap) return null;
    const { baseUrl: _b, headers: _h, repository, ...rest } = snap;
    return { sessionId, ...rest, repository: repository ? { path: repository.path, digest: repository.digest, applied: repository.applied } : null };
  }

  private snapshot(sessionId: string): Snapshot | null {
    const row = this.db.prepare('SELECT snapshot_json FROM session_providers WHERE session_id = ?').get(sessionId) as { snapshot_json: string } | undefined;
    if (!row) return null;
    try {
      return JSON.parse(row.snapshot_json) as Snapshot;
    } catch {
      return null;
    }
  }

  /**
   * Tests a provider's endpoint and key: GET of the kind's model listing (`/v1/models` with
   * `x-api-key` for Anthropic, `/models` with a bearer token for OpenAI kinds, `/v1beta/models`
   * with `x-goog-api-key` for Gemini), 10 s timeout. Bedrock and Vertex have no such listing.
   * @throws AtriumError NOT_FOUND
   */
  async test(id: string, workspaceId?: string): Promise<{ ok: boolean; endpoint: string; status: number | null; message: string }> {
    const p = this.get(id);
    const vars = KIND_VARIABLES[p.kind];
    const endpoint = this.baseUrlIn(id, workspaceId ?? null) ?? vars.defaultUrl;
    if (vars.models.auth === 'none') return { ok: false, endpoint, status: null, message: `Atrium cannot test a ${p.kind} provider: it has no model listing to call. Start a session to check it.` };
    const key = this.credentials().safeGet(id);
    if (!key) return { ok: false, endpoint, status: null, message: `No key is stored for "${p.name}". Add one, then test again.` };
    const headers: Record<string, string> = { ...p.headers };
    if (vars.models.auth === 'x-api-key') Object.assign(headers, { 'x-api-key': key, 'anthropic-version': '2023-06-01' });
    if (vars.models.auth === 'bearer') headers.authorization = `Bearer ${key}`;
    if (vars.models.auth === 'goog') headers['x-goog-api-key'] = key;
    const url = endpoint.replace(/\/+$/, '') + vars.models.path;
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
      await res.body?.cancel().catch(() => undefined);
      if (res.ok) return { ok: true, endpoint, status: res.status, message: `Connected: ${url} answered ${res.status}.` };
      const why = res.status === 401 || res.status === 403 ? 'the key was refused' : res.status === 404 ? 'no model listing at this URL (check the base URL)' : 'the endpoint answered with an error';
      return { ok: false, endpoint, status: res.status, message: `${url} answered ${res.status}: ${why}.` };
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return { ok: false, endpoint, status: null, message: this.credentials().redact(`Cannot reach ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}. Check the base URL and your network.`) };
    }
  }

  private changed(workspaceId: string | null): void {
    this.deps.bus.emit('providersChanged', { workspaceId });
  }

  /**
   * Records what a new session starts with: the workspace's provider for its agent (endpoint with
   * the workspace override applied), model and mode; for Claude Code, the repository's `env`
   * endpoint when the folder is trusted and that exact definition is approved (else withheld,
   * with a notice naming the digest to approve).
   */
  private onCreated(ctx: HookContext, info: { sourceDir: string }): void {
    const r = ctx.session;
    const setting = r.workspaceId ? this.settingFor(r.workspaceId, r.agentId) : null;
    const provider = setting?.providerId ? this.row(setting.providerId) : null;
    const snap: Snapshot = {
      providerId: provider?.id ?? null,
      providerName: provider?.name ?? null,
      kind: provider?.kind ?? null,
      baseUrl: provider ? this.baseUrlIn(provider.id, r.workspaceId) : null,
      endpoint: null,
      headers: provider ? parseHeaders(provider.headers_json) : {},
      model: setting?.model ?? null,
      modeId: setting?.modeId ?? null,
      source: provider ? 'provider' : 'inherited',
      repository: null,
      createdAt: new Date().toISOString(),
    };
    snap.endpoint = provider ? (snap.baseUrl ?? KIND_VARIABLES[provider.kind].defaultUrl) : null;
    const preset = this.deps.presetOf(r.agentId);
    if (r.workspaceId && preset === 'claude') {
      const def = repositoryEndpoints(info.sourceDir).find((d) => d.tool === 'claude');
      if (def) {
        const trusted = this.deps.trustGate.mayActivateProjectResources(info.sourceDir);
        const approved = trusted && this.approved(r.workspaceId, def.digest);
        snap.repository = { path: def.path, digest: def.digest, applied: approved, variables: approved ? def.variables : {} };
        const shown = Object.entries(def.variables)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ');
        if (approved) {
          const url = def.variables.ANTHROPIC_BASE_URL ?? def.variables.ANTHROPIC_BEDROCK_BASE_URL ?? def.variables.ANTHROPIC_VERTEX_BASE_URL;
          if (url) snap.endpoint = url;
          if (def.variables.ANTHROPIC_MODEL && !snap.model) snap.model = def.variables.ANTHROPIC_MODEL;
          snap.source = 'repository';
          ctx.append(notice('warning', `Model traffic goes to the repository's endpoint (${def.path}, approved): ${shown}`));
        } else {
          ctx.append(
            notice(
              'warning',
              `Withheld the repository's model endpoint (${def.path}): it redirects model traffic and ${trusted ? 'is not approved' : 'the folder is not trusted'}`,
              `${shown}\nDigest ${def.digest}. ${trusted ? 'Approve it in the workspace\'s Agent settings or with `atrium providers approve-endpoint WORKSPACE ' + def.digest + '`; new sessions then send your key there.' : 'Trust the folder and approve this definition to use it.'}`,
            ),
          );
        }
      }
    }
    this.db.prepare('INSERT OR REPLACE INTO session_providers (session_id, snapshot_json, created_at) VALUES (?, ?, ?)').run(r.id, JSON.stringify(snap), snap.createdAt);
    if (snap.source === 'provider') ctx.append(notice('info', `Provider ${snap.providerName} (${snap.kind}) at ${snap.endpoint}${snap.model ? `, model ${snap.model}` : ''}`));
  }

  /**
   * The agent's environment for its provider: every model-traffic variable it would inherit is
   * removed, then the provider's are set (key read now from the credential store), then an
   * approved repository definition's. Without a snapshot or provider, the environment is left as
   * it is. Known keys (the store's, and secret-named inherited variables) are redacted from stderr.
   */
  private beforeSpawn(ctx: HookContext, launch: LaunchSpec): LaunchSpec {
    const snap = this.snapshot(ctx.session.id);
    const env = { ...launch.env };
    const redact = new Set(launch.redact ?? []);
    if (snap?.providerId && snap.kind) {
      for (const name of MODEL_TRAFFIC_VARIABLES) delete env[name];
      const vars = KIND_VARIABLES[snap.kind];
      Object.assign(env, vars.fixed);
      // always explicit (the kind's default when the provider names none), so nothing the agent
      // loads later (a repository .env: variables already set win) can point the key elsewhere
      if (snap.baseUrl) env[vars.baseUrl] = snap.baseUrl;
      else if (snap.kind !== 'bedrock' && snap.kind !== 'vertex') env[vars.baseUrl] = vars.defaultUrl;
      if (snap.model && vars.model) env[vars.model] = snap.model;
      if (vars.headers && Object.keys(snap.headers).length) env[vars.headers] = headerLines(snap.headers);
      if (vars.key) {
        const key = this.credentials().safeGet(snap.providerId);
        if (key) {
          env[vars.key] = key;
          redact.add(key);
        } else {
          ctx.append(notice('warning', `No key is stored for provider "${snap.providerName}": the agent starts without one`, `Add it in Settings → Providers and keys, or \`atrium credentials set ${snap.providerId}\` (the key on stdin).`));
        }
      }
    } else if (snap?.model && this.deps.presetOf(ctx.session.agentId) === 'claude') {
      env.ANTHROPIC_MODEL = snap.model;
    }
    if (snap?.repository?.applied) Object.assign(env, snap.repository.variables);
    for (const [name, value] of Object.entries(env)) if (isSecretVariable(name) && value) redact.add(value);
    for (const key of this.store?.knownSecrets() ?? []) redact.add(key);
    return { ...launch, env, redact: [...redact] };
  }

  /**
   * Selects the session's model and mode on a new agent session where the agent offers them: the
   * model through the configuration option of category `model` (when the value is one it lists;
   * otherwise the environment variable set at launch is what the agent uses), the mode through
   * `session/set_mode` unless the user chose one. A refusal is a warning notice.
   */
  private async afterAttach(ctx: HookContext, info: AttachInfo): Promise<void> {
    if (info.via !== 'new') return;
    const snap = this.snapshot(ctx.session.id);
    if (!snap) return;
    if (snap.model && info.setConfigOption) {
      const option = ctx.session.configOptions.find((o) => o.category === 'model' || o.id === 'model');
      if (option && option.currentValue !== snap.model && option.options.some((o) => o.value === snap.model)) {
        try {
          await info.setConfigOption(option.id, snap.model);
        } catch (error) {
          ctx.append(notice('warning', `Could not select model "${snap.model}": ${(error as Error).message}`));
        }
      }
    }
    if (snap.modeId && info.setMode && !ctx.session.desiredModeId && ctx.session.modes?.currentModeId !== snap.modeId && ctx.session.modes?.available.some((m) => m.id === snap.modeId)) {
      try {
        await info.setMode(snap.modeId);
      } catch (error) {
        ctx.append(notice('warning', `Could not switch to the workspace's mode "${snap.modeId}": ${(error as Error).message}`));
      }
    }
  }

  /** The session hooks of this service (added to the session runtime after the workspace policy's). */
  hooks(): SessionHooks {
    return {
      onCreated: (ctx, info) => this.onCreated(ctx, info),
      beforeSpawn: (ctx, launch) => this.beforeSpawn(ctx, launch),
      afterAttach: (ctx, info) => this.afterAttach(ctx, info),
    };
  }
}

/** An http(s) URL without trailing slash. @throws AtriumError INVALID_PARAMS */
function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AtriumError('INVALID_PARAMS', `"${url}" is not a URL. Write it in full, e.g. https://gateway.example.com/anthropic.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new AtriumError('INVALID_PARAMS', `"${url}" is not an http(s) URL.`);
  return url.replace(/\/+$/, '');
}
