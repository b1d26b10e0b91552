import type { AgentBehaviour } from '../../../../shared/contract';
import type { RuleFormat } from '../../rules/types';
import type { AgentPreset } from '../presets';

/**
 * How an agent is kept from loading or running unapproved workspace resources by itself, per
 * preset.
 */
export interface AgentIsolation extends AgentBehaviour {
  /** Rule formats the agent reads by itself as Atrium launches it: listed, never sent twice. */
  nativeRuleFormats: RuleFormat[];
  /**
   * Claude Code (acp.md §7): launched with `settingSources: []`, static rules in the system
   * prompt, approved hooks and the first-write barrier delivered through Claude's own hooks.
   */
  claudeBridge: boolean;
  /**
   * Which agent's configuration model Atrium's launch switches are written for (the preset behind the
   * agent id or its recognised command line), or null when Atrium has none for it.
   */
  presetId: string | null;
  /**
   * Environment variables set on the agent's process at launch, over the user's and the agent's own
   * (e.g. OpenCode 1.18.33's `OPENCODE_DISABLE_PROJECT_CONFIG=1`); empty when none.
   */
  launchEnv: Record<string, string>;
}

/**
 * Per preset: what the agent does on its own, and Atrium's switches. Sources: acp.md §7 (Claude
 * Code adapter 0.101.0, read from its published code), formats.md (each tool's own discovery of
 * instruction files, hooks and MCP servers). Agents without such switches are documented so the
 * new-session dialog can say exactly what they will do.
 */
const ISOLATION: Record<string, Omit<AgentIsolation, 'agentId' | 'presetId' | 'name'>> = {
  claude: {
    nativeRuleFormats: [],
    claudeBridge: true,
    isolated: true,
    launchEnv: {},
    switches: [
      '_meta.claudeCode.options.settingSources = [] — Claude loads no user, project or local settings: no CLAUDE.md, no .claude/settings*.json hooks or permissions, no .mcp.json servers, no .claude skills/commands/agents of its own',
      '_meta.claudeCode.options.settings.hooks = only Atrium\'s bridge hook (PreToolUse, PostToolUse, PostToolUseFailure): approved hooks run through it, and the first write under unloaded contextual rules is denied with the rules as the reason',
      '_meta.systemPrompt.append = the static rules of the session\'s snapshot',
      '_meta.claudeCode.options.permissionMode = "default", so edits and commands come back as permission requests',
      'mcpServers = only the approved repository MCP servers',
    ],
    ownBehaviour: [
      'Claude Code writes and edits files itself (not through Atrium); Atrium sees each edit as a permission request and enforces rules and approved hooks through its bridge hook.',
      'Claude Code runs shell commands itself after a permission answer; approved PreToolUse hooks see them first.',
    ],
    whenTrusted: [
      'Nothing of its own: Claude Code is launched with settingSources [], so it loads no CLAUDE.md, .claude/settings*.json, .mcp.json, skills, commands or subagents by itself. Trusting lets Atrium deliver the repository\'s rules, its approved hooks (through the bridge hook) and its approved MCP servers.',
    ],
  },
  codex: {
    // codex-acp 2.6.0 / Codex 0.166.0, measured in test/integration/sessions/codexReal.test.ts (codexIsolation.ts)
    nativeRuleFormats: ['agents', 'agents-override'],
    claudeBridge: false,
    isolated: true,
    launchEnv: {},
    switches: [
      'CODEX_CONFIG (Codex\'s config override for the session; your own CODEX_CONFIG is merged in, except its hooks) and the Codex app-server started with the same switches as -c overrides (so codex-acp\'s title-generation thread obeys them too):',
      'features.hooks = false — Codex runs no hook itself (no .codex/hooks.json, no inline [hooks], no user hooks); Atrium runs the approved ones at the ACP boundary: SessionStart, UserPromptSubmit, PreToolUse and PermissionRequest (when Codex asks permission), PostToolUse, Stop, SessionEnd',
      'mcp_servers.<name>.enabled = false for every server in the repository\'s .codex/config.toml; the approved ones are switched on again from the snapshot\'s verified definition',
      'initial mode "read-only" (Codex\'s sandbox is read-only and it asks through session/request_permission before it edits files or runs a command outside the sandbox)',
      'project_doc_max_bytes = 0 in a workspace Atrium does not trust: Codex reads none of the repository\'s AGENTS.md files there (Atrium sends no project rules in restricted mode either)',
    ],
    ownBehaviour: [
      'In a workspace trusted in Atrium, Codex reads AGENTS.md and AGENTS.override.md itself, from the repository root down to the session folder (Atrium does not send them again).',
      'codex-acp marks every session folder trusted for Codex, so Codex reads the rest of the repository\'s .codex/config.toml by itself, also in a workspace Atrium does not trust (e.g. model, sandbox settings, shell_environment_policy, profiles; it ignores notify, model_provider and model_providers there); Atrium\'s mode sets approval and sandbox per turn.',
      "Model traffic: Codex ignores a repository's model_provider and model_providers, but reads its model setting once it reads the project config. With a provider chosen in the workspace's Agent settings, Atrium sets OPENAI_API_KEY and OPENAI_BASE_URL itself.",
      'Codex reads ~/.codex/config.toml itself: it starts the MCP servers defined there and in your own CODEX_CONFIG (Atrium does not list them) and runs its notify program after each turn.',
      'Codex loads skills itself, also in a workspace Atrium does not trust (the repository\'s .agents/skills, ~/.agents/skills, ~/.codex/skills and its installed plugins).',
      'Codex hook events PreCompact, PostCompact, SubagentStart and SubagentStop never fire under Atrium (Codex\'s own hooks are off and the ACP boundary does not show them); PreToolUse runs only for tool calls Codex asks permission for.',
    ],
    whenTrusted: [
      'AGENTS.md and AGENTS.override.md, which Codex reads itself from the repository root down to the session folder (until the folder is trusted, Atrium turns them off).',
      "The rest of the repository's .codex/config.toml (model, sandbox, shell environment and other settings). Codex loads this layer even before the folder is trusted in Atrium (codex-acp marks every session folder trusted for Codex); Atrium's launch switches turn off its hooks and every repository MCP server, and approved ones run through Atrium.",
      "The repository's skills (.agents/skills), which Codex loads itself, also before the folder is trusted.",
    ],
  },
  gemini: {
    // the 'gemini' format is dropped when Atrium does not trust the workspace (snapshot.ts splitNative)
    nativeRuleFormats: ['gemini'],
    claudeBridge: false,
    isolated: true,
    launchEnv: {},
    switches: [
      'GEMINI_CLI_TRUST_WORKSPACE = Atrium\'s verdict ("true" only for a workspace trusted in Atrium, else "false"), so Gemini\'s own trustedFolders.json does not matter; "--skip-trust" is removed from the command line',
      'GEMINI_CLI_SYSTEM_SETTINGS_PATH = a per-session system settings file of Atrium\'s (the real /etc/gemini-cli/settings.json, or the file the environment named, merged in; system settings override user and workspace settings), written where Gemini accepts it (owned by root, no folder above it writable by group or others); when Atrium finds no such place (it does not run as root), GEMINI_CLI_TRUST_WORKSPACE = "false" instead',
      'hooksConfig.enabled = false: Gemini runs no hook itself; Atrium runs the approved ones (SessionStart, BeforeAgent, BeforeTool on permission requests, AfterTool on tool-call completion, AfterAgent, SessionEnd) at the ACP boundary',
      'mcp.allowed = only the approved MCP servers Atrium passes over ACP (the approved copy replaces a settings server of the same name); every other server of the user, the workspace or an extension is blocked; tools.confirmationRequired keeps their tools asking',
      'tools.allowed = [], tools.discoveryCommand = "", tools.callCommand = "", mcp.serverCommand = "", general.defaultApprovalMode = "default", security.disableYoloMode = true, advanced.ignoreLocalEnv = true',
      'GEMINI_CLI_SYSTEM_DEFAULTS_PATH = the real system-defaults.json, so moving the system settings does not drop it',
      'fs.readTextFile is not advertised: Gemini reads files from disk itself (it cannot tell a missing file from an error over ACP); writes go through Atrium',
    ],
    ownBehaviour: [
      'Gemini CLI reads GEMINI.md files itself in a workspace trusted in Atrium (Atrium does not send them again); in any other workspace Gemini loads none and Atrium sends them.',
      "In a workspace trusted in Atrium, Gemini still reads the rest of .gemini/settings.json (e.g. model, context and UI settings; not hooks, MCP servers, tool commands or auto-approvals) and loads .gemini/.env into its own environment (variables Atrium did not set), which the commands and approved MCP servers it starts inherit.",
      "Model traffic: in a workspace trusted in Atrium, Gemini reads the repository's model setting (.gemini/settings.json) and loads .gemini/.env and .env, which may set GOOGLE_GEMINI_BASE_URL. With a provider chosen in the workspace's Agent settings, Atrium sets GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL itself and those files cannot change them (variables already set win); without one, a repository .env can send your key to its own endpoint once you trust the folder.",
      "Gemini reads its user-level ~/.gemini/settings.json, policies and installed extensions (their context files and commands; their hooks and MCP servers do not run).",
      'Gemini reads files from disk itself; its writes and the shell commands it runs come back as permission requests first.',
      'In a workspace Atrium does not fully trust, Gemini treats the folder as untrusted: it starts no MCP server at all, not even approved ones Atrium passes.',
      'Gemini in ACP mode never fires BeforeModel, AfterModel, BeforeToolSelection or PreCompress, and Atrium cannot: hooks for those events never run.',
      "Gemini CLI accepts Atrium's settings file only from a root-owned place. When Atrium does not run as root, Atrium tells Gemini the folder is untrusted instead: it reads no workspace settings, runs no hook, starts no MCP server (approved ones included) and Atrium sends GEMINI.md; the user's own ~/.gemini/settings.json (e.g. its auto-approvals) still applies.",
    ],
    whenTrusted: [
      'GEMINI.md files, which Gemini CLI reads itself (in a workspace Atrium does not trust, Gemini loads none and Atrium sends them).',
      "The rest of the repository's .gemini/settings.json (model, context and other settings) and .gemini/.env. Atrium's system settings switch off its hooks, tool commands and auto-approvals and start only approved MCP servers. When Atrium does not run as root, Gemini reads none of the workspace's settings and starts no MCP server.",
    ],
  },
  // OpenCode 1.18.33 (native Bun binary), measured over ACP: with these variables it starts no
  // repository MCP server or plugin and sends the model no project AGENTS.md or skill, while an MCP
  // server passed in session/new still starts and an edit comes back as session/request_permission.
  // It reads no Claude/Codex/Gemini hook files and no .mcp.json at all.
  opencode: {
    nativeRuleFormats: [],
    claudeBridge: false,
    isolated: true,
    launchEnv: { OPENCODE_DISABLE_PROJECT_CONFIG: '1', OPENCODE_DISABLE_EXTERNAL_SKILLS: '1', OPENCODE_PERMISSION: JSON.stringify({ edit: 'ask', bash: 'ask' }) },
    switches: [
      "OPENCODE_DISABLE_PROJECT_CONFIG=1 — OpenCode skips the repository's opencode.json/opencode.jsonc (its MCP servers, plugins, instructions, agents, commands), its .opencode/ folders (plugins, skills, agents, commands) and its AGENTS.md, CLAUDE.md and CONTEXT.md; Atrium sends the rules instead",
      'OPENCODE_DISABLE_EXTERNAL_SKILLS=1 — no skills from .claude/skills or .agents/skills (the repository\'s, and also your own under ~/.claude and ~/.agents)',
      'OPENCODE_PERMISSION={"edit":"ask","bash":"ask"} — edits and shell commands come back as permission requests instead of OpenCode\'s default "allow"',
      'mcpServers = only the approved repository MCP servers',
    ],
    ownBehaviour: [
      'OpenCode writes and edits files and runs shell commands itself after a permission answer; approved hooks run at the ACP boundary around those requests.',
      "OpenCode still loads your own configuration (~/.config/opencode: MCP servers, plugins, agents); an agent there with its own permission settings can allow edits without asking, and its plugins run code Atrium does not review.",
      'Other tools (reading, searching, fetching web pages) run without asking, as OpenCode allows them by default.',
    ],
    whenTrusted: [
      "Nothing of the repository's own: OpenCode is launched with OPENCODE_DISABLE_PROJECT_CONFIG=1 and OPENCODE_DISABLE_EXTERNAL_SKILLS=1, so it loads no opencode.json, .opencode/ plugins, skills, agents or commands, no AGENTS.md or CLAUDE.md and no .claude/.agents skills by itself. Trusting lets Atrium deliver the repository's rules, its approved hooks (at the ACP boundary) and its approved MCP servers.",
    ],
  },
  qwen: {
    nativeRuleFormats: [],
    claudeBridge: false,
    isolated: false,
    launchEnv: {},
    switches: [],
    ownBehaviour: [
      'Qwen Code reads QWEN.md and AGENTS.md context files itself (Atrium sends AGENTS.md as well, so it may reach the model twice).',
      "Qwen Code loads the repository's .qwen/settings.json by itself, with its MCP servers and hooks: its own folder trust is off unless security.folderTrust.enabled is set, and Atrium passes no switch to stop it.",
    ],
    whenTrusted: [
      "Everything its own configuration loads: QWEN.md, AGENTS.md and the repository's .qwen/settings.json with its MCP servers and hooks. Qwen Code loads these whether the folder is trusted in Atrium or not; approvals are not enforced for it.",
    ],
  },
};

/**
 * The isolation of an agent: `known` is the preset of its id, or the preset recognised behind a
 * user-defined command line (`recognised` says how; that agent gets the preset's isolation, and
 * the behaviour says so). Null: a user-defined agent Atrium cannot identify, so it isolates
 * nothing and says what it cannot stop. `displayName` names the agent to people (default: the
 * preset's name for a preset id, else the id).
 */
export function isolationFor(agentId: string, known: { preset: AgentPreset; recognised: string | null } | null, displayName: string = known && !known.recognised ? known.preset.name : agentId): AgentIsolation {
  const preset = known?.preset ?? null;
  const iso = preset ? ISOLATION[preset.id] : undefined;
  if (preset && iso) {
    const name = known?.recognised ? `${displayName} (${preset.name})` : preset.name;
    const base: AgentIsolation = { agentId, name, presetId: preset.id, ...iso, nativeRuleFormats: preset.nativeRuleFormats ?? iso.nativeRuleFormats };
    if (!known?.recognised) return base;
    // the switches are read from the pinned version's source; another version may not honour them
    const note = `Recognised as ${preset.name} because ${known.recognised}: launched with the ${preset.id} preset's ${iso.isolated ? 'isolation' : 'settings'}, written for ${preset.package}@${preset.version}.`;
    return { ...base, ownBehaviour: [note, ...iso.ownBehaviour] };
  }
  return {
    agentId,
    name: displayName,
    nativeRuleFormats: preset?.nativeRuleFormats ?? [],
    claudeBridge: false,
    presetId: null,
    isolated: false,
    launchEnv: {},
    switches: [],
    ownBehaviour: [
      preset
        ? `${preset.name}: Atrium knows no switch that keeps it from loading workspace files by itself.`
        : "A user-defined agent: Atrium cannot tell what it loads or runs from the workspace by itself. Atrium sends the rules, passes only approved MCP servers and runs only approved hooks itself; the agent may still load and run the repository's own hooks and MCP servers from its own configuration files.",
    ],
    whenTrusted: [
      preset
        ? `Whatever ${preset.name}'s own configuration loads from the repository, trusted or not: Atrium cannot enforce approvals for it.`
        : "Atrium cannot tell: whatever the agent's own configuration loads from the repository (instruction files, hooks, MCP servers, settings), trusted or not. Atrium cannot enforce approvals for it.",
    ],
  };
}

/** The part of an isolation people see (the new-session dialog, `atrium session new`, the session view, the trust review). */
export function behaviourOf(iso: AgentIsolation): AgentBehaviour {
  return { agentId: iso.agentId, name: iso.name, nativeRuleFormats: iso.nativeRuleFormats, ownBehaviour: iso.ownBehaviour, switches: iso.switches, isolated: iso.isolated, whenTrusted: iso.whenTrusted };
}

/**
 * How the transcript names repository hooks and MCP servers Atrium did not run or pass. "Skipped"
 * and "withheld" only for an isolated agent, where Atrium's decision is the whole story; for any
 * other agent they are "not run by Atrium" / "not passed by Atrium", with a caveat that the agent
 * may load and run the repository's own configuration by itself.
 */
export function notRunWording(iso: Pick<AgentIsolation, 'isolated'>): { hooks: string; mcp: string; hooksCaveat: string | null; mcpCaveat: string | null } {
  if (iso.isolated) return { hooks: 'skipped', mcp: 'withheld', hooksCaveat: null, mcpCaveat: null };
  return {
    hooks: 'not run by Atrium',
    mcp: 'not passed by Atrium',
    hooksCaveat: "Atrium runs only approved hooks itself. This agent is not isolated: it may load and run the repository's own hooks by itself.",
    mcpCaveat: "Atrium passes only approved MCP servers. This agent is not isolated: it may start MCP servers from the repository's own configuration by itself.",
  };
}

/**
 * The start notice of an agent Atrium does not isolate (a preset without switches, or a command
 * line it cannot identify): says plainly that approvals are not enforced for it and what it may
 * load and run by itself, so nothing in the transcript reads as if Atrium had stopped it.
 */
export function notIsolatedNotice(iso: Pick<AgentIsolation, 'name' | 'ownBehaviour' | 'switches'>): { severity: 'warning'; code: 'agent_not_isolated'; title: string; detail: string } {
  return {
    severity: 'warning',
    code: 'agent_not_isolated',
    title: `Atrium cannot enforce approvals for ${iso.name}: it may load and run workspace configuration by itself`,
    detail: [
      ...iso.ownBehaviour,
      ...(iso.switches.length ? [`Atrium launches it with: ${iso.switches.join('; ')}.`] : []),
      'Atrium sends the rules, passes only approved MCP servers and runs only approved hooks itself; what the agent loads and runs on its own is outside those approvals.',
    ].join('\n'),
  };
}
