/**
 * Extensions in the workspace resource bundle: skills, custom commands, subagents,
 * plugins, MCP servers, output styles and LSP servers, as the bundle holds them. Paths are relative
 * to the workspace folder with `/` separators; user-level files appear as `~/…`. Project files are
 * listed only when the folder is trusted (restricted mode lists nothing from the project).
 *
 * Precedence within a kind is one rule (see `src/main/core/extensions/precedence.ts`): built-in <
 * user `.claude` < user `.blade` < project `.claude` < project `.blade` < plugin resources, which
 * are namespaced `plugin:<plugin>:<name>` so they never override anything. Two resources of one
 * kind compete only when their ids are equal; the loser is listed with status `overridden`.
 */
import { z } from 'zod';
import { defineEvents, defineRequests } from './define';
import { TrustWarning } from './trust';

/**
 * Where a resource comes from: Atrium itself, `~/…`, the repository, a personal local-scope source
 * (`*.local.*` files, or `~/.claude.json` `projects["<this folder>"]`), an enabled plugin.
 */
export const ExtensionSource = z.enum(['builtin', 'user', 'project', 'local', 'plugin']);
export type ExtensionSource = z.infer<typeof ExtensionSource>;

/** `active` = in effect; `overridden` = a higher layer has the same id; `invalid` = cannot load (see warnings). */
export const ExtensionStatus = z.enum(['active', 'overridden', 'invalid']);
export type ExtensionStatus = z.infer<typeof ExtensionStatus>;

/** Extension kinds (the CLI's `--kind` values). `agents` = subagents, `mcp` = MCP servers, `lsp` = LSP servers. */
export const ExtensionKind = z.enum(['skills', 'commands', 'agents', 'plugins', 'mcp', 'styles', 'lsp']);
export type ExtensionKind = z.infer<typeof ExtensionKind>;

/** A problem with a file: path (as listed), 1-based line or null, message, suggested fix or null. */
export const ExtensionWarning = TrustWarning;
export type ExtensionWarning = z.infer<typeof ExtensionWarning>;

/** Fields every listed Markdown resource (skill, command, subagent, output style) carries. */
const ResourceBase = {
  /** Unique within its kind: the name for native resources, `plugin:<plugin>:<name>` for plugin ones (styles: seed §3 ids). */
  id: z.string(),
  name: z.string(),
  source: ExtensionSource,
  /** The folder convention it was found in: `claude` (`.claude/…`), `blade` (`.blade/…`) or `plugin`. */
  tool: z.string(),
  /** Plugin name for plugin resources, else null. */
  plugin: z.string().nullable(),
  /** The file (workspace-relative, `~/…`, or absolute for a plugin outside both). */
  path: z.string(),
  /** Hex SHA-256 of the file's normalised text (BOM removed, CRLF → LF); null when unreadable. */
  sha256: z.string().nullable(),
  status: ExtensionStatus,
  /** Path of the resource that overrides this one (status `overridden`), else null. */
  overriddenBy: z.string().nullable(),
  warnings: z.array(ExtensionWarning),
};

/** A skill (`<dir>/<name>/SKILL.md`, formats.md §2.8, seed §10). The body is fetched on demand (`extensions.skillBody`). */
export const SkillInfo = z.object({
  ...ResourceBase,
  description: z.string(),
  whenToUse: z.string().nullable(),
  argumentHint: z.string().nullable(),
  allowedTools: z.array(z.string()),
  model: z.string().nullable(),
  disableModelInvocation: z.boolean(),
  userInvocable: z.boolean(),
  /** Size of the body in UTF-8 bytes. */
  bodyBytes: z.number().int(),
  /** Named positional arguments (`arguments:` as a space-separated string or a list) → `$name` in the body. */
  arguments: z.array(z.string()),
  /** Hooks the frontmatter registers while the skill is invoked (`hooks:`), or null when it declares none. */
  hooks: z.object({ count: z.number().int(), events: z.array(z.string()) }).nullable(),
  /** The literal `` !`cmd` `` embeds (and ```` ```! ```` blocks) of the body: they run when the skill is invoked. */
  shellEmbeds: z.array(z.string()),
});
export type SkillInfo = z.infer<typeof SkillInfo>;

/** A custom slash command (`commands/**\/*.md`, formats.md §2.9, seed §11). Subfolders are part of the name (`frontend/x`). */
export const CommandInfo = z.object({
  ...ResourceBase,
  description: z.string().nullable(),
  argumentHint: z.string().nullable(),
  allowedTools: z.array(z.string()),
  model: z.string().nullable(),
  disableModelInvocation: z.boolean(),
  /** The frontmatter as parsed. */
  frontmatter: z.record(z.string(), z.unknown()),
  /**
   * Each top-level frontmatter key's value as the author wrote it, on one line (`[topic: foo | bar]`
   * where YAML read a list holding a mapping): what the Extensions tab shows.
   */
  frontmatterSource: z.record(z.string(), z.string()),
  hasShellEmbeds: z.boolean(),
  /** The literal `` !`cmd` `` embeds (and ```` ```! ```` blocks) of the template, in order. */
  shellEmbeds: z.array(z.string()),
  /** The `@path` tokens of the template, as written. */
  fileRefs: z.array(z.string()),
});
export type CommandInfo = z.infer<typeof CommandInfo>;

/** A subagent (`agents/*.md`, formats.md §2.12). */
export const AgentInfo = z.object({
  ...ResourceBase,
  description: z.string().nullable(),
  tools: z.array(z.string()),
  model: z.string().nullable(),
});
export type AgentInfo = z.infer<typeof AgentInfo>;

/**
 * An output style (seed §3): `user:x`, `project:review:strict`, `plugin:<p>:x`. The prompt is kept
 * in the bundle, not listed; `sha256` is the SHA-256 of the prompt (trimmed body), seed §3.2.
 */
export const StyleInfo = z.object({
  ...ResourceBase,
  description: z.string(),
  /** UTF-8 bytes of the prompt (trimmed body). */
  promptBytes: z.number().int(),
});
export type StyleInfo = z.infer<typeof StyleInfo>;

/** What a plugin brings (counts). */
export const PluginContributes = z.object({
  commands: z.number().int(),
  skills: z.number().int(),
  agents: z.number().int(),
  styles: z.number().int(),
  hooks: z.number().int(),
  mcpServers: z.number().int(),
  lspServers: z.number().int(),
});
export type PluginContributes = z.infer<typeof PluginContributes>;

/** The settings layer that decided a plugin's enabled state. */
export const PluginEnabledBy = z.object({
  scope: z.enum(['user', 'project', 'local']),
  /** The settings file (`~/…` or workspace-relative). */
  file: z.string(),
  /** The `enabledPlugins` key that matched (`name` or `name@marketplace`). */
  key: z.string(),
});

/** A plugin (formats.md §2.10, seed §12). */
export const PluginInfo = z.object({
  /** `plugin:<name>` (or `plugin:<name>@<marketplace>` for a marketplace entry). */
  id: z.string(),
  name: z.string(),
  version: z.string().nullable(),
  description: z.string().nullable(),
  /** Plugin folder (workspace-relative, `~/…`). */
  path: z.string(),
  /** Its manifest (`.claude-plugin/plugin.json` or `.blade-plugin/plugin.json`), or null (marketplace entry / none). */
  manifestPath: z.string().nullable(),
  /** Marketplace name when listed by a marketplace, else null. */
  marketplace: z.string().nullable(),
  /**
   * `user` (`~/.claude/plugins`, `~/.blade/plugins`, and plugins installed from a marketplace:
   * `~/.claude/plugins/installed_plugins.json` → `~/.claude/plugins/cache/…`) or `project` (the
   * workspace's plugin folders and marketplaces).
   */
  source: ExtensionSource,
  /** For an installed plugin: its `installed_plugins.json` scope (`user`, `project`, `local`), else null. */
  installScope: z.string().nullable(),
  enabled: z.boolean(),
  /** The layer that set `enabled`, or null when it is the default (plugin folders: on; marketplace entries: off). */
  enabledBy: PluginEnabledBy.nullable(),
  /** `error` = the manifest is unusable; nothing from the plugin loads. */
  status: z.enum(['enabled', 'disabled', 'error']),
  contributes: PluginContributes,
  warnings: z.array(ExtensionWarning),
});
export type PluginInfo = z.infer<typeof PluginInfo>;

/** An MCP server (formats.md §2.7). Secret-looking values of `env`, headers and arguments are masked; `${VAR}` stays as written. */
export const McpServerInfo = z.object({
  id: z.string(),
  name: z.string(),
  /** `stdio`, `http`, `sse`, `ws`, as written or inferred from the fields (`command` → stdio, `url` → http). */
  transport: z.string(),
  command: z.string().nullable(),
  /** Arguments with secret-looking values masked. */
  args: z.array(z.string()),
  url: z.string().nullable(),
  cwd: z.string().nullable(),
  envNames: z.array(z.string()),
  headerNames: z.array(z.string()),
  /**
   * Variable references the definition reads, as written (`${API_KEY}`, `${env:TOKEN}`, `$HOME` in
   * Gemini settings), each once; the tool that reads the file expands them from the environment.
   */
  variables: z.array(z.string()),
  /** Env values as written, secret-looking ones masked (`••••••`); `${VAR}` references are shown, never expanded. */
  env: z.record(z.string(), z.string()),
  /** Header values, masked the same way (`Bearer ${TOKEN}` stays visible, a literal token does not). */
  headers: z.record(z.string(), z.string()),
  source: ExtensionSource,
  plugin: z.string().nullable(),
  /** The file that declares it. */
  path: z.string(),
  line: z.number().int().nullable(),
  /** Content digest (`sha256:…`) used by MCP approval (the Hooks tab). */
  digest: z.string(),
  /** The id `atrium mcp approve` takes (`m_…`). */
  approvalId: z.string(),
  /** `overridden`: a higher layer declares a server of the same name (whole entry from the winner). */
  status: z.enum(['active', 'overridden', 'invalid']),
  overriddenBy: z.string().nullable(),
  warnings: z.array(ExtensionWarning),
});
export type McpServerInfo = z.infer<typeof McpServerInfo>;

/** An LSP server (`.lsp.json`, plugin `lspServers`; seed §14). Starting it belongs to sessions. */
export const LspServerInfo = z.object({
  /** `project:<name>` or `plugin:<plugin>:<name>`. */
  id: z.string(),
  name: z.string(),
  command: z.string().nullable(),
  args: z.array(z.string()),
  /** Lower-cased extensions with a leading dot. */
  extensions: z.array(z.string()),
  priority: z.number().int(),
  source: ExtensionSource,
  plugin: z.string().nullable(),
  path: z.string(),
  line: z.number().int().nullable(),
  /** `disabled` = `"enabled": false`. */
  status: z.enum(['active', 'invalid', 'disabled']),
  warnings: z.array(ExtensionWarning),
});
export type LspServerInfo = z.infer<typeof LspServerInfo>;

/**
 * Restricted mode: what trusting the folder would activate, by kind, from the same discovery the
 * trusted bundle uses (active skills, commands, subagents, styles, MCP and LSP servers; enabled
 * plugins). All zero when the folder is trusted.
 */
export const RestrictedCounts = z.object({
  skills: z.number().int(),
  commands: z.number().int(),
  agents: z.number().int(),
  plugins: z.number().int(),
  mcp: z.number().int(),
  styles: z.number().int(),
  lsp: z.number().int(),
});

/** `extensions.list` and `atrium resources DIR --json`. */
export const ExtensionsListResult = z.object({
  /** Canonical workspace folder. */
  root: z.string(),
  /** `restricted`: nothing from the project is active; `restrictedCounts` says what would be. */
  trust: z.enum(['trusted', 'restricted']),
  restrictedCounts: RestrictedCounts,
  skills: z.array(SkillInfo),
  commands: z.array(CommandInfo),
  agents: z.array(AgentInfo),
  plugins: z.array(PluginInfo),
  mcpServers: z.array(McpServerInfo),
  styles: z.array(StyleInfo),
  lspServers: z.array(LspServerInfo),
  /** Problems not tied to one resource (a style root disabled, a settings file that does not parse…). */
  warnings: z.array(ExtensionWarning),
  /** SHA-256 over every listed resource's id and digest: changes whenever the bundle's extensions change. */
  digest: z.string(),
});
export type ExtensionsListResult = z.infer<typeof ExtensionsListResult>;

/** A shell embed of a command template (never run by a preview). */
export const CommandEmbed = z.object({
  command: z.string(),
  /** 1-based line in the command file. */
  line: z.number().int(),
});

/** An `@path` reference: `included` (inside the workspace, a readable file), `refused` (outside it) or `missing`. */
export const CommandFileRef = z.object({
  token: z.string(),
  path: z.string(),
  status: z.enum(['included', 'refused', 'missing']),
  reason: z.string().nullable(),
});

/**
 * `extensions.commandPreview` and `atrium command preview`: the template expanded with the
 * arguments (Claude Code semantics, formats.md §2.9: `$ARGUMENTS` = all arguments as typed,
 * `$ARGUMENTS[N]` and `$N` **0-based**, `$0` = first), `@path` files inlined, shell embeds listed
 * but NOT run (they stay as `` !`cmd` `` in `text`).
 */
export const CommandPreview = z.object({
  id: z.string(),
  name: z.string(),
  path: z.string(),
  /** The command file's digest the preview was made from. */
  sha256: z.string(),
  text: z.string(),
  args: z.array(z.string()),
  indexing: z.literal('zero-based'),
  embeds: z.array(CommandEmbed),
  fileRefs: z.array(CommandFileRef),
  warnings: z.array(ExtensionWarning),
  /** True when the embeds may be run after confirmation (trusted workspace, at least one embed). */
  canRun: z.boolean(),
  /** Why they may not, or null. */
  runBlockedReason: z.string().nullable(),
  /** Single-use token for `extensions.runCommandEmbeds` (valid 10 minutes, only for exactly these embeds), or null. */
  confirmToken: z.string().nullable(),
});
export type CommandPreview = z.infer<typeof CommandPreview>;

/** One shell embed's run. */
export const EmbedRun = z.object({
  command: z.string(),
  exitCode: z.number().int().nullable(),
  /** Trimmed stdout (or the error text in brackets), as inserted. */
  output: z.string(),
  timedOut: z.boolean(),
  truncated: z.boolean(),
});

export const CommandRunResult = z.object({
  id: z.string(),
  /** The expansion with each embed replaced (literally) by its output. */
  text: z.string(),
  runs: z.array(EmbedRun),
});
export type CommandRunResult = z.infer<typeof CommandRunResult>;

const WorkspaceId = z.string().min(1);

export const extensionsRequests = defineRequests({
  'extensions.list': {
    description: "The workspace's skills, commands, subagents, plugins, MCP servers, output styles and LSP servers, with source, path, status and warnings.",
    params: z.object({ workspaceId: WorkspaceId, kind: ExtensionKind.optional() }),
    result: ExtensionsListResult,
  },
  'extensions.skillBody': {
    description: 'The body of a skill, read now; fails with EXTENSION_CHANGED when the file no longer matches the digest the bundle recorded.',
    params: z.object({ workspaceId: WorkspaceId, id: z.string().min(1) }),
    result: z.object({ id: z.string(), path: z.string(), sha256: z.string(), body: z.string() }),
  },
  'extensions.commandPreview': {
    description: 'Expands a command with sample arguments without running anything; lists its shell embeds and returns a confirmation token to run them.',
    params: z.object({
      workspaceId: WorkspaceId,
      /** Command id or name (`frontend/x`, `plugin:p:x`, or a unique short name). */
      name: z.string().min(1),
      /** Arguments as separate words (the CLI's ARGS…). */
      args: z.array(z.string()).optional(),
      /** Arguments as typed (split shell-style into words; `$ARGUMENTS` is this text). Wins over `args`. */
      argumentText: z.string().optional(),
    }),
    result: CommandPreview,
  },
  'extensions.runCommandEmbeds': {
    description: "Runs the shell embeds of a previewed command (trusted workspaces only) after the user confirmed them; the arguments never reach a shell.",
    params: z.object({ workspaceId: WorkspaceId, confirmToken: z.string().min(1) }),
    result: CommandRunResult,
  },
  'extensions.setPluginEnabled': {
    description: "Enables or disables a plugin in one settings layer (`enabledPlugins` of ~/.claude/settings.json, .claude/settings.json or .claude/settings.local.json).",
    params: z.object({ workspaceId: WorkspaceId, id: z.string().min(1), scope: z.enum(['user', 'project', 'local']), enabled: z.boolean() }),
    result: z.object({ plugin: PluginInfo, file: z.string() }),
  },
});

export const extensionsEvents = defineEvents({
  extensionsChanged: {
    description: "A workspace's extensions changed (files on disk, a plugin toggled, or trust) and the bundle was rebuilt.",
    payload: z.object({ workspaceId: z.string() }),
  },
});
