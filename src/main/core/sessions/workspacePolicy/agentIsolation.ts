import type { AgentBehaviour } from '../../../../shared/contract';
import type { RuleFormat } from '../../rules/types';
import type { AgentPreset } from '../presets';

/**
 * How an agent is kept from loading or running unapproved workspace resources by itself (issue 8
 * "The agent's own execution of repository resources"), per preset.
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
}

/**
 * Per preset: what the agent does on its own, and Atrium's switches. Sources: acp.md §7 (Claude
 * Code adapter 0.101.0, read from its published code), formats.md (each tool's own discovery of
 * instruction files, hooks and MCP servers). Agents without such switches are documented so the
 * new-session dialog can say exactly what they will do.
 */
const ISOLATION: Record<string, Omit<AgentIsolation, 'agentId' | 'presetId'>> = {
  claude: {
    nativeRuleFormats: [],
    claudeBridge: true,
    isolated: true,
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
  },
  codex: {
    // codex-acp 2.6.0 / Codex 0.166.0, measured in test/integration/sessions/codexReal.test.ts (codexIsolation.ts)
    nativeRuleFormats: ['agents', 'agents-override'],
    claudeBridge: false,
    isolated: true,
    switches: [
      'CODEX_CONFIG (Codex\'s config override for the session; your own CODEX_CONFIG is merged in, except its hooks) and the Codex app-server started with the same switches as -c overrides (so codex-acp\'s title-generation thread obeys them too):',
      'features.hooks = false — Codex runs no hook itself (no .codex/hooks.json, no inline [hooks], no user hooks); Atrium runs the approved ones at the ACP boundary: SessionStart, UserPromptSubmit, PreToolUse and PermissionRequest (when Codex asks permission), PostToolUse, Stop, SessionEnd',
      'mcp_servers.<name>.enabled = false for every server in the repository\'s .codex/config.toml; the approved ones are switched on again from the snapshot\'s verified definition',
      'initial mode "read-only" (Codex\'s sandbox is read-only and it asks through session/request_permission before it edits files or runs a command outside the sandbox)',
    ],
    ownBehaviour: [
      'Codex reads AGENTS.md and AGENTS.override.md itself, from the repository root down to the session folder (Atrium does not send them again).',
      'codex-acp marks the session folder trusted for Codex, so Codex still reads the rest of the repository\'s .codex/config.toml by itself (e.g. model, model_provider and model_providers, sandbox settings, shell_environment_policy, profiles); Atrium\'s mode sets approval and sandbox per turn.',
      'Codex reads ~/.codex/config.toml itself: it starts the MCP servers defined there and in your own CODEX_CONFIG (Atrium does not list them) and runs its notify program after each turn (Codex ignores notify, model_provider and model_providers in a repository\'s config).',
      'Codex loads skills itself (the repository\'s .agents/skills, ~/.agents/skills, ~/.codex/skills and its installed plugins).',
      'Codex hook events PreCompact, PostCompact, SubagentStart and SubagentStop never fire under Atrium (Codex\'s own hooks are off and the ACP boundary does not show them); PreToolUse runs only for tool calls Codex asks permission for.',
    ],
  },
  gemini: {
    // the 'gemini' format is dropped when Atrium does not trust the workspace (snapshot.ts splitNative)
    nativeRuleFormats: ['gemini'],
    claudeBridge: false,
    isolated: true,
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
      "Gemini reads its user-level ~/.gemini/settings.json, policies and installed extensions (their context files and commands; their hooks and MCP servers do not run).",
      'Gemini reads files from disk itself; its writes and the shell commands it runs come back as permission requests first.',
      'In a workspace Atrium does not fully trust, Gemini treats the folder as untrusted: it starts no MCP server at all, not even approved ones Atrium passes.',
      'Gemini in ACP mode never fires BeforeModel, AfterModel, BeforeToolSelection or PreCompress, and Atrium cannot: hooks for those events never run.',
      "Gemini CLI accepts Atrium's settings file only from a root-owned place. When Atrium does not run as root, Atrium tells Gemini the folder is untrusted instead: it reads no workspace settings, runs no hook, starts no MCP server (approved ones included) and Atrium sends GEMINI.md; the user's own ~/.gemini/settings.json (e.g. its auto-approvals) still applies.",
    ],
  },
  opencode: {
    nativeRuleFormats: ['agents', 'claude'],
    claudeBridge: false,
    isolated: false,
    switches: [],
    ownBehaviour: [
      'OpenCode reads AGENTS.md (and CLAUDE.md when there is no AGENTS.md) itself.',
      'OpenCode loads MCP servers from its own opencode.json configuration; Atrium cannot switch that off.',
    ],
  },
  qwen: {
    nativeRuleFormats: [],
    claudeBridge: false,
    isolated: false,
    switches: [],
    ownBehaviour: ['Qwen Code reads QWEN.md context files and its .qwen/settings.json (MCP servers) by itself; Atrium cannot switch that off over ACP.'],
  },
};

/**
 * The isolation of an agent: `known` is the preset of its id, or the preset recognised behind a
 * user-defined command line (`recognised` says how; that agent gets the preset's isolation, and
 * the behaviour says so). Null: a user-defined agent Atrium cannot identify, so it isolates
 * nothing and says what it cannot stop.
 */
export function isolationFor(agentId: string, known: { preset: AgentPreset; recognised: string | null } | null): AgentIsolation {
  const preset = known?.preset ?? null;
  const iso = preset ? ISOLATION[preset.id] : undefined;
  if (preset && iso) {
    const base: AgentIsolation = { agentId, presetId: preset.id, ...iso, nativeRuleFormats: preset.nativeRuleFormats ?? iso.nativeRuleFormats };
    if (!known?.recognised) return base;
    const note = `Recognised as ${preset.name} because ${known.recognised}: launched with the ${preset.id} preset's ${iso.isolated ? 'isolation' : 'settings'}.`;
    return { ...base, ownBehaviour: [note, ...iso.ownBehaviour] };
  }
  return {
    agentId,
    nativeRuleFormats: preset?.nativeRuleFormats ?? [],
    claudeBridge: false,
    presetId: null,
    isolated: false,
    switches: [],
    ownBehaviour: [
      preset
        ? `${preset.name}: Atrium knows no switch that keeps it from loading workspace files by itself.`
        : "A user-defined agent: Atrium cannot tell what it loads or runs from the workspace by itself. Atrium sends the rules, passes only approved MCP servers and runs only approved hooks itself; the agent may still load and run the repository's own hooks and MCP servers from its own configuration files.",
    ],
  };
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
