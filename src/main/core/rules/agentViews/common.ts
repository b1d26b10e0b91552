import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { RuleCatalog } from '../catalog';
import { ancestorsOf, isInside } from '../paths';
import { revealSmuggling } from '../../formats/unicode';
import type { RuleFile } from '../types';

/** Agents with a view; `copilot` is VS Code Copilot Chat, modelled from its docs (no offline agent). */
export type AgentName = 'codex' | 'claude' | 'gemini' | 'copilot';

/**
 * What a view needs beyond the catalog. `codexHome` = Codex's `$CODEX_HOME` (absolute; default
 * `<homeDir>/.codex`), where Codex reads its global AGENTS.md and `config.toml`.
 */
export interface AgentViewOptions {
  codexHome?: string;
}

/**
 * One file in an agent view. `loaded` = read at start (`when: 'start'`) or when a file below is
 * read (`when: 'on-read'`); `truncated` = cut at `truncatedAt` bytes; `cut` = budget exhausted;
 * `skipped` = found but not used (empty, too large); `ignored` = this agent does not read this
 * kind of file; `conditional` = would load on reading a matching file; `restricted` = the folder
 * is not trusted, so Atrium shows the name and size only.
 */
export interface AgentViewFile {
  path: string;
  bytes: number;
  loadedBytes: number;
  status: 'loaded' | 'truncated' | 'cut' | 'skipped' | 'ignored' | 'conditional' | 'restricted';
  when: 'start' | 'on-read' | null;
  reason: string;
  truncatedAt: number | null;
}

/** "What would this agent load from `fromDir`". */
export interface AgentView {
  agent: AgentName;
  /** Root-relative start folder. */
  fromDir: string;
  /** Root-relative target used for on-read files, or null. */
  targetPath: string | null;
  /** The agent's byte budget (Codex: 32 KiB), or null when it has none. */
  budgetBytes: number | null;
  /** Bytes the agent would load (start + on-read). */
  usedBytes: number;
  files: AgentViewFile[];
  notes: string[];
  /** Concatenated text the agent would receive (readable files only; empty in restricted mode). */
  content: string;
}

/** A file found by probing the disk. */
export interface Probe {
  absolute: string;
  /** Display path: root-relative, `~/…`, or absolute. */
  display: string;
  size: number;
  /** Catalog entry for it, when the catalog has one. */
  entry: RuleFile | undefined;
  /**
   * The real path when a workspace file (root-relative display) resolves outside the catalog root
   * (a committed `AGENTS.md -> /etc/passwd`), else null. Atrium never reads such a target to show it.
   */
  outside?: string | null;
}

/** Lookup helpers shared by the views. */
export class ViewContext {
  private readonly byPath: Map<string, RuleFile>;

  constructor(readonly catalog: RuleCatalog) {
    this.byPath = new Map(catalog.files.map((f) => [f.relativePath, f]));
  }

  /** Catalog entry by display path. */
  entry(display: string): RuleFile | undefined {
    return this.byPath.get(display);
  }

  /** Root-relative folders from the root down to `fromRel` (inclusive). */
  chain(fromRel: string): string[] {
    return ancestorsOf(fromRel);
  }

  /** Stats `<root>/<dirRel>/<name>` (following symlinks); null when absent or not a file. */
  async probe(dirRel: string, name: string): Promise<Probe | null> {
    const display = dirRel ? `${dirRel}/${name}` : name;
    return this.probeAbsolute(path.join(this.catalog.root, display), display);
  }

  /** Stats an absolute path (following symlinks); null when absent or not a file. */
  async probeAbsolute(absolute: string, display: string): Promise<Probe | null> {
    try {
      const st = await fs.stat(absolute);
      if (!st.isFile()) return null;
      return { absolute, display, size: st.size, entry: this.byPath.get(display), outside: await this.outsideTarget(absolute, display) };
    } catch {
      return null;
    }
  }

  /** Real path of a workspace file whose target lies outside the catalog root, else null. */
  private async outsideTarget(absolute: string, display: string): Promise<string | null> {
    if (/^[~/]/.test(display)) return null;
    try {
      const real = await fs.realpath(absolute);
      return isInside(this.catalog.root, real) ? null : real;
    } catch {
      return null;
    }
  }

  /** True when Atrium may read the file's content (user files, or trusted project files inside the workspace). */
  readable(p: Probe): boolean {
    if (p.outside) return false;
    if (p.entry) return p.entry.status !== 'restricted';
    return this.catalog.trust === 'trusted' && !/^[~/]/.test(p.display);
  }

  /**
   * Normalised text of a probed file (catalog content when known), or null when unreadable. A file
   * Atrium marks invalid is still read from disk (the agent's own rules decide whether it loads),
   * except when its real path escapes the workspace. Smuggling characters (TAG text, selector
   * payloads, bidi overrides) come back as `⟨U+XXXX⟩`, as everywhere Atrium shows or sends text.
   */
  async text(p: Probe): Promise<string | null> {
    if (!this.readable(p)) return null;
    if (p.entry?.content) return p.entry.content;
    if (p.entry && p.entry.status === 'invalid' && p.entry.warnings.some((w) => w.code === 'symlink-escape' || w.code === 'dangling-symlink')) return null;
    try {
      return revealSmuggling((await fs.readFile(p.absolute, 'utf8')).replace(/^\uFEFF/, '').replace(/\r\n/g, '\n').trim());
    } catch {
      return null;
    }
  }

  /**
   * The row for a file Atrium cannot show (restricted mode), else null. Atrium's own policies (a
   * file it marks invalid, hidden characters) never make a row "skipped": the view goes on with
   * what the agent does, and {@link flagRows} notes what Atrium flags.
   */
  problem(p: Probe): AgentViewFile | null {
    if (p.outside) {
      return { path: p.display, bytes: p.size, loadedBytes: 0, status: 'restricted', when: null, reason: `Links to ${p.outside} (outside the workspace): the agent would read it; Atrium shows its size only.`, truncatedAt: null };
    }
    if (p.entry?.status === 'restricted' || (!p.entry && !this.readable(p))) {
      return { path: p.display, bytes: p.size, loadedBytes: 0, status: 'restricted', when: null, reason: 'The folder is not trusted: Atrium shows the name and size only.', truncatedAt: null };
    }
    return null;
  }

  /** Atrium's error-level finding about a catalog file (why it is invalid, or hidden characters), or null. */
  flag(display: string): string | null {
    const entry = this.byPath.get(display);
    if (!entry || entry.status === 'restricted') return null;
    return entry.warnings.find((w) => w.severity === 'error')?.message ?? null;
  }
}

/**
 * Adds Atrium's flag to every row the agent loads (or would load) whose file Atrium flags with an
 * error: "The agent loads it; Atrium flags it: …". Agents know nothing of Atrium's policies, so a
 * view never says an agent skipped a file for one of them. Returns the rows, changed in place.
 */
export function flagRows(ctx: ViewContext, files: AgentViewFile[]): AgentViewFile[] {
  for (const row of files) {
    if (row.status !== 'loaded' && row.status !== 'truncated' && row.status !== 'cut' && row.status !== 'conditional') continue;
    const why = ctx.flag(row.path);
    if (why) row.reason = `${row.reason} The agent ${row.status === 'conditional' ? 'would load' : 'loads'} it; Atrium flags it: ${why}`;
  }
  return files;
}

/** A loaded-file row. */
export function loadedRow(display: string, bytes: number, when: 'start' | 'on-read', reason: string): AgentViewFile {
  return { path: display, bytes, loadedBytes: bytes, status: 'loaded', when, reason, truncatedAt: null };
}

/** An ignored-file row. */
export function ignoredRow(display: string, bytes: number, reason: string): AgentViewFile {
  return { path: display, bytes, loadedBytes: 0, status: 'ignored', when: null, reason, truncatedAt: null };
}
