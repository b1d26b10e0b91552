import type {
  AgentInfo,
  CommandInfo,
  ExtensionWarning,
  LspServerInfo,
  McpServerInfo,
  PluginInfo,
  SkillInfo,
  StyleInfo,
} from '../../../shared/contract/extensions';
import type { Layer } from './precedence';

/** Fields the engine keeps beside what the contract lists (never sent as is). */
export interface Located {
  /** Absolute path of the file. */
  absolutePath: string;
  /** Precedence layer (see `precedence.ts`). */
  layer: Layer;
  /** True for `*.local.*` sources (beat the shared file of the same layer). */
  local: boolean;
}

/**
 * The parsed frontmatter of a Markdown resource, kept for readers that need more than the listed
 * fields (the trust review lists frontmatter `hooks` and `mcpServers` from it instead of parsing
 * the file again). `lines` maps each top-level key to its 1-based file line.
 */
export interface Frontmatter {
  data: Readonly<Record<string, unknown>>;
  lines: Readonly<Record<string, number | null>>;
}

/** A skill in the bundle: metadata only; the body is read on demand and checked against `sha256`. */
export type SkillRecord = SkillInfo & Located & { meta: Frontmatter };

/** A command in the bundle, with its template (the body after the frontmatter) frozen at build time. */
export type CommandRecord = CommandInfo &
  Located & {
    meta: Frontmatter;
    template: string;
    /** 1-based file line of the template's first line. */
    bodyLine: number;
  };

/** A subagent in the bundle. */
export type AgentRecord = AgentInfo & Located & { meta: Frontmatter };

/** An output style in the bundle, with its prompt frozen at build time (seed §3: the snapshot keeps it). */
export type StyleRecord = StyleInfo & Located & { prompt: string };

/** A plugin in the bundle. `root` is absolute. */
export type PluginRecord = PluginInfo & {
  root: string;
  layer: Layer;
  /** The parsed manifest (or marketplace entry for `strict: false`), or null. */
  manifest: Record<string, unknown> | null;
  /** The marketplace entry that listed it, or null. */
  entry: Record<string, unknown> | null;
};

/** An MCP server in the bundle. */
export type McpRecord = Omit<McpServerInfo, 'status'> & Located & { status: McpServerInfo['status'] | 'overridden' };

/** An LSP server in the bundle. */
export type LspRecord = LspServerInfo & { absolutePath: string };

/**
 * The extensions value of a workspace bundle: every kind, frozen. A rebuild makes a new
 * object, so a snapshot (the same object) never changes; skill bodies are the only lazily read part
 * and are verified against `sha256` when read (`readSkillBody`).
 */
export interface ExtensionCatalog {
  readonly kind: 'extensions';
  /** Canonical workspace folder. */
  readonly root: string;
  readonly homeDir: string;
  readonly trusted: boolean;
  readonly restrictedCounts: Readonly<Record<'skills' | 'commands' | 'agents' | 'plugins' | 'mcp' | 'styles' | 'lsp', number>>;
  readonly skills: readonly SkillRecord[];
  readonly commands: readonly CommandRecord[];
  readonly agents: readonly AgentRecord[];
  readonly plugins: readonly PluginRecord[];
  readonly mcpServers: readonly McpRecord[];
  readonly styles: readonly StyleRecord[];
  readonly lspServers: readonly LspRecord[];
  readonly warnings: readonly ExtensionWarning[];
  /** Extra folders to watch recursively (nested `.claude/skills` and `.blade/skills` roots found by the build). */
  readonly watchRoots: readonly string[];
  /** SHA-256 over every resource's id and digest (and plugin states). */
  readonly digest: string;
  readonly builtAt: string;
  readonly buildMs: number;
  /** Returns itself: the catalog is immutable, so it is its own snapshot. */
  snapshot(): ExtensionCatalog;
}
