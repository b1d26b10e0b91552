import path from 'node:path';
import type { AgentSummary } from '../../../shared/contract';
import { AtriumError } from '../../../shared/errors';
import type { EventBus } from '../events/bus';
import { nodeRuntime, type NodeRuntimeOptions } from '../process/nodeRuntime';
import { findExecutable } from '../process/pathLookup';
import type { Store } from '../store/database';
import { AgentConfigs } from './agentConfigs';
import { installDir, installPreset, readInstallMarker } from './installer';
import { recogniseAgentCommand, type RecognisedAgent } from './knownAgents';
import { AGENT_PRESETS, type AgentPreset } from './presets';
import { isolationFor } from './workspacePolicy/agentIsolation';

/** Everything needed to start an agent: the command line (no shell) and its extra environment. */
export interface ResolvedAgent {
  id: string;
  version: string | null;
  preset: AgentPreset | null;
  /** For a user-defined agent: the preset recognised behind its command line (its isolation and initial mode apply), else null. */
  knownAs: AgentPreset | null;
  command: string;
  args: string[];
  /** Preset env, then the user's per-agent env (later wins); merged over the user's environment at spawn. */
  env: Record<string, string>;
}

/** Options of {@link AgentRegistry}; all optional, for tests and embedding. */
export interface AgentRegistryOptions {
  /** Presets to offer (default {@link AGENT_PRESETS}). */
  presets?: readonly AgentPreset[];
  /** PATH used to find preset binaries, user commands and, in the desktop app, `node` (default `process.env.PATH`). */
  envPath?: string;
  /** npm executable for installs (default `$ATRIUM_NPM` or `npm`). */
  npmCommand?: string;
  /**
   * Where the Node that runs Node programs is looked up ({@link nodeRuntime}; `envPath` above is its
   * PATH). Default: the running process (Electron or not, `process.env`).
   */
  node?: Pick<NodeRuntimeOptions, 'electron' | 'env'>;
}

/**
 * The agents Atrium can launch: built-in presets (data, pinned versions) and user-defined agents
 * stored in SQLite. Resolves how to launch each: the pinned install in `<dataDir>/agents` as
 * `node <entry>` (the engine's Node; in the desktop app `$ATRIUM_NODE` or `node` on PATH, see
 * {@link nodeRuntime}), else a binary of the same name on PATH. Installs are single-flight per
 * agent and report progress as `agentInstallProgress` events.
 */
export class AgentRegistry {
  private readonly configs: AgentConfigs;
  private readonly presets: readonly AgentPreset[];
  private readonly installing = new Map<string, Promise<AgentSummary>>();
  private readonly installErrors = new Map<string, string>();

  constructor(
    store: Store,
    private readonly bus: EventBus,
    private readonly dataDir: string,
    private readonly options: AgentRegistryOptions = {},
  ) {
    this.configs = new AgentConfigs(store);
    this.presets = options.presets ?? AGENT_PRESETS;
  }

  /** Presets first (in preset order), then user-defined agents by id. */
  list(): AgentSummary[] {
    const users = this.configs.all().filter((c) => c.kind === 'user' && !this.preset(c.id));
    return [...this.presets.map((p) => this.summary(p.id)), ...users.map((u) => this.summary(u.id))];
  }

  /** Every agent id: the presets', then user-defined agents' (no install probing, unlike {@link list}). */
  ids(): string[] {
    return [...this.presets.map((p) => p.id), ...this.configs.all().filter((c) => c.kind === 'user' && !this.preset(c.id)).map((c) => c.id)];
  }

  /** @throws AtriumError AGENT_NOT_FOUND */
  get(id: string): AgentSummary {
    return this.summary(id);
  }

  /** The preset with this id, or null. */
  preset(id: string): AgentPreset | null {
    return this.presets.find((p) => p.id === id) ?? null;
  }

  /**
   * Whose isolation an agent gets: the preset of this id (`recognised` null), else the preset
   * recognised behind a user-defined agent's command line (see {@link recogniseAgentCommand}, e.g.
   * the Claude ACP adapter launched by path or through npx), else null.
   */
  knownAgent(id: string): { preset: AgentPreset; recognised: string | null } | null {
    const preset = this.preset(id);
    if (preset) return { preset, recognised: null };
    const config = this.configs.get(id);
    if (!config || config.kind !== 'user' || !config.command) return null;
    const found: RecognisedAgent | null = recogniseAgentCommand(config.command, config.args, this.presets, this.options.envPath ?? process.env.PATH, this.nodeOptions());
    return found ? { preset: found.preset, recognised: found.how } : null;
  }

  /** How people know the agent: its configured name (a user agent's `--name`), else the preset's name, else the id. */
  nameOf(id: string): string {
    return this.configs.get(id)?.name ?? this.preset(id)?.name ?? id;
  }

  /**
   * The Node executable that runs Node programs for this engine (installed agents, the Claude hook
   * bridge): see {@link nodeRuntime}.
   * @throws AtriumError NODE_UNAVAILABLE (desktop app without Node.js on PATH or ATRIUM_NODE)
   */
  nodeCommand(): string {
    return nodeRuntime(this.nodeOptions());
  }

  /**
   * How to launch an agent now.
   * @throws AtriumError AGENT_NOT_FOUND | AGENT_NOT_INSTALLED (with the install command to run) |
   *   NODE_UNAVAILABLE (an installed Node program and no Node to run it with)
   */
  resolve(id: string): ResolvedAgent {
    const preset = this.preset(id);
    const config = this.configs.get(id);
    const userEnv = config?.env ?? {};
    if (preset) {
      const marker = readInstallMarker(this.dataDir, preset);
      const env = { ...preset.env, ...userEnv };
      if (marker) {
        if (preset.launch === 'exec') return { id, version: preset.version, preset, knownAs: null, command: marker.entry, args: [...preset.args], env };
        return { id, version: preset.version, preset, knownAs: null, command: this.nodeCommand(), args: [marker.entry, ...preset.args], env };
      }
      const onPath = findExecutable(preset.bin, this.options.envPath);
      if (onPath) return { id, version: preset.version, preset, knownAs: null, command: onPath, args: [...preset.args], env };
      throw new AtriumError(
        'AGENT_NOT_INSTALLED',
        `${preset.name} (${preset.package}@${preset.version}) is not installed. Install it with: atrium agents install ${id} (or the Install button).`,
      );
    }
    if (!config || config.kind !== 'user' || !config.command) throw this.notFound(id);
    return { id, version: null, preset: null, knownAs: this.knownAgent(id)?.preset ?? null, command: config.command, args: config.args, env: userEnv };
  }

  /**
   * Creates or replaces a user-defined agent.
   * @throws AtriumError INVALID_PARAMS when the id is a preset id
   */
  define(input: { id: string; name?: string; command: string; args: string[]; env: Record<string, string> }): AgentSummary {
    if (this.preset(input.id)) throw new AtriumError('INVALID_PARAMS', `"${input.id}" is a built-in preset; choose another id for your agent.`);
    this.configs.put({ id: input.id, kind: 'user', name: input.name ?? input.id, command: input.command, args: input.args, env: input.env });
    return this.summary(input.id);
  }

  /** Removes a user-defined agent; presets cannot be removed (false). */
  remove(id: string): boolean {
    const config = this.configs.get(id);
    if (!config || config.kind !== 'user') return false;
    return this.configs.delete(id);
  }

  /**
   * Replaces the per-agent environment of a preset or user-defined agent.
   * @throws AtriumError AGENT_NOT_FOUND
   */
  setEnv(id: string, env: Record<string, string>): AgentSummary {
    const preset = this.preset(id);
    const config = this.configs.get(id);
    if (!preset && !config) throw this.notFound(id);
    this.configs.put(config ? { ...config, env } : { id, kind: 'preset', name: null, command: null, args: [], env });
    return this.summary(id);
  }

  /**
   * Installs an npm preset (single-flight per agent), pushing `agentInstallProgress` events.
   * An already-installed preset resolves at once.
   * @throws AtriumError AGENT_NOT_FOUND | UNSUPPORTED (user-defined agents are not installed by Atrium) | AGENT_INSTALL_FAILED
   */
  install(id: string): Promise<AgentSummary> {
    const preset = this.preset(id);
    if (!preset) {
      if (this.configs.get(id)) return Promise.reject(new AtriumError('UNSUPPORTED', `"${id}" is a user-defined agent; Atrium runs its command as given and does not install it.`));
      return Promise.reject(this.notFound(id));
    }
    const running = this.installing.get(id);
    if (running) return running;
    const task = (async () => {
      this.installErrors.delete(id);
      try {
        await installPreset(
          this.dataDir,
          preset,
          (r) => {
            const final = r.phase === 'done' || r.phase === 'failed';
            if (r.phase === 'failed') this.installErrors.set(id, r.message);
            if (final) this.installing.delete(id);
            this.bus.emit('agentInstallProgress', { agentId: id, version: preset.version, ...r, agent: final ? this.summary(id) : null });
          },
          this.options.npmCommand,
        );
        return this.summary(id);
      } finally {
        this.installing.delete(id);
      }
    })();
    this.installing.set(id, task);
    return task;
  }

  private summary(id: string): AgentSummary {
    const preset = this.preset(id);
    const config = this.configs.get(id);
    const envNames = Object.keys({ ...(preset?.env ?? {}), ...(config?.env ?? {}) }).sort();
    if (preset) {
      const marker = readInstallMarker(this.dataDir, preset);
      const onPath = marker ? null : findExecutable(preset.bin, this.options.envPath);
      const installing = this.installing.has(id);
      let state: AgentSummary['install']['state'] = installing ? 'installing' : marker || onPath ? 'installed' : 'available';
      let error = this.installErrors.get(id) ?? null;
      let launch: { command: string; args: string[] };
      try {
        const r = this.resolve(id);
        launch = { command: r.command, args: r.args };
      } catch (e) {
        // installed but no Node to run it (desktop app): it cannot start until Node.js is found
        if (!installing && e instanceof AtriumError && e.code === 'NODE_UNAVAILABLE') {
          state = 'unavailable';
          error = e.message;
        }
        const entry = marker?.entry ?? path.join(installDir(this.dataDir, preset), 'node_modules', preset.package, '…');
        launch = preset.launch === 'node' ? { command: this.nodeOrName(), args: [entry, ...preset.args] } : { command: entry, args: [...preset.args] };
      }
      return {
        id,
        name: preset.name,
        description: preset.description,
        kind: 'preset',
        version: preset.version,
        package: preset.package,
        install: {
          state,
          source: marker ? 'data-dir' : onPath ? 'path' : null,
          path: marker ? installDir(this.dataDir, preset) : onPath,
          error,
        },
        ...launch,
        envNames,
        isolated: isolationFor(id, this.knownAgent(id)).isolated,
      };
    }
    if (!config || config.kind !== 'user' || !config.command) throw this.notFound(id);
    const found = findExecutable(config.command, this.options.envPath);
    return {
      id,
      name: config.name ?? id,
      description: `User-defined agent: ${[config.command, ...config.args].join(' ')}`,
      kind: 'user',
      version: null,
      package: null,
      install: {
        state: found ? 'installed' : 'unavailable',
        source: found ? 'command' : null,
        path: found,
        error: found ? null : `Command "${config.command}" was not found on PATH.`,
      },
      command: config.command,
      args: config.args,
      envNames,
      isolated: isolationFor(id, this.knownAgent(id)).isolated,
    };
  }

  private nodeOptions(): NodeRuntimeOptions {
    return { ...this.options.node, envPath: this.options.envPath };
  }

  /** The Node that would run a Node program, or plain `node` when none is found (for display). */
  private nodeOrName(): string {
    try {
      return this.nodeCommand();
    } catch {
      return 'node';
    }
  }

  private notFound(id: string): AtriumError {
    return new AtriumError('AGENT_NOT_FOUND', `No agent "${id}". Known agents: ${this.list().map((a) => a.id).join(', ')}. See: atrium agents list`);
  }
}
