import { promises as fs, readFileSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { isInside } from '../paths';
import { RULE_LIMITS } from '../limits';
import { formatBytes } from '../readSource';
import { claudeImportsExtension, claudeImportTokens, claudeMatchingPattern, readClaudeMemory } from './claudeMemory';
import { ignoredRow, loadedRow, ViewContext, type AgentView, type AgentViewFile, type Probe } from './common';

/** Claude's memory kinds and the framing it gives each in its system reminder (`Za` in the bundle). */
type ClaudeKind = 'Project' | 'Local' | 'User';
const KIND_LABEL: Record<ClaudeKind, string> = {
  Project: ' (project instructions, checked into the codebase)',
  Local: " (user's private project instructions, not checked in)",
  User: " (user's private global instructions for all projects)",
};

/** Claude follows imports while the depth is below 5: the file itself is 0, so 4 hops (`oQr`). */
const MAX_IMPORT_DEPTH = 5;

/** One file Claude loads, in its order. */
interface Loaded {
  absolute: string;
  display: string;
  kind: ClaudeKind;
  /** Text Claude sends (after frontmatter and block comments), untrimmed. */
  content: string;
  bytes: number;
  paths: string[] | null;
  frontmatterUnparsed: boolean;
  /** True when the frontmatter has `paths` but no usable pattern (`[]`, `""`, `**`). */
  emptyPaths: boolean;
  /** Display path of the file whose `@token` imported this one. */
  importedBy: { display: string; token: string } | null;
  /** Display path of the symlink target when the path is a symlink. */
  symlinkTo: string | null;
  isRule: boolean;
  /** The `paths` pattern that matched the file Claude read, for conditional rules loaded on read. */
  matched: string | null;
}

/** Per-walk state: Claude's `processedPaths` (paths and real paths already loaded). */
class Walk {
  readonly processed = new Set<string>();
  readonly notes: string[] = [];
  /** Rows for files Atrium may not read (untrusted folder): name and size only. */
  readonly restricted: AgentViewFile[] = [];
  constructor(
    readonly ctx: ViewContext,
    /** Claude's working directory (the start folder), absolute: project imports must stay inside. */
    readonly cwd: string,
  ) {}

  display(absolute: string): string {
    const { root, homeDir } = this.ctx.catalog;
    if (isInside(root, absolute)) return path.relative(root, absolute).split(path.sep).join('/') || '.';
    if (isInside(homeDir, absolute)) return `~/${path.relative(homeDir, absolute).split(path.sep).join('/')}`;
    return absolute;
  }

  /**
   * Claude's `iV`: the file, then (depth first) what it imports. Project and local imports must
   * resolve inside the working directory; user files may import from anywhere.
   */
  async load(absolute: string, kind: ClaudeKind, external: boolean, depth = 0, importedBy: Loaded['importedBy'] = null): Promise<Loaded[]> {
    if (this.processed.has(absolute) || depth >= MAX_IMPORT_DEPTH) return [];
    let real: string;
    let size: number;
    try {
      real = await fs.realpath(absolute);
      const st = await fs.stat(real);
      if (!st.isFile()) return [];
      size = st.size;
    } catch {
      return [];
    }
    if (depth > 0 && !external && !isInside(this.cwd, real)) {
      this.notes.push(`${importedBy?.display ?? '?'} imports @${importedBy?.token ?? ''}, outside Claude's working directory: Claude Code asks before such imports and skips them until approved.`);
      return [];
    }
    if (real !== absolute && this.processed.has(real)) return [];
    this.processed.add(absolute);
    if (depth > 0 && !claudeImportsExtension(absolute)) return [];
    if (size > RULE_LIMITS.claudeSkipBytes) {
      this.notes.push(`${this.display(absolute)} is over ${formatBytes(RULE_LIMITS.claudeSkipBytes)}: Claude Code skips it.`);
      return [];
    }
    this.processed.add(real);
    const display = this.display(absolute);
    // A committed file may link anywhere (`CLAUDE.md -> /etc/passwd`): Claude reads it, Atrium only sizes it.
    const outside = !/^[~/]/.test(display) && !isInside(this.ctx.catalog.root, real) ? real : null;
    const probe: Probe = { absolute, display, size, entry: this.ctx.entry(display), outside };
    const problem = this.ctx.problem(probe);
    if (problem?.status === 'restricted' || !this.ctx.readable(probe)) {
      this.restricted.push(problem ?? { ...ignoredRow(probe.display, size, 'The folder is not trusted: Atrium shows the name and size only.'), status: 'restricted' });
      return [];
    }
    let raw: string;
    try {
      raw = readFileSync(absolute, 'utf8');
    } catch {
      return [];
    }
    const memory = readClaudeMemory(raw);
    if (!memory.content.trim()) return [];
    const file: Loaded = {
      absolute,
      display: probe.display,
      kind,
      content: memory.content,
      bytes: size,
      paths: memory.paths,
      frontmatterUnparsed: memory.frontmatterUnparsed,
      emptyPaths: memory.emptyPaths,
      importedBy,
      symlinkTo: real !== absolute ? this.display(real) : null,
      isRule: false,
      matched: null,
    };
    const out = [file];
    for (const imp of claudeImportTokens(memory.content, absolute, this.ctx.catalog.homeDir)) {
      if (!external && !isInside(this.cwd, imp.absolute)) {
        this.notes.push(`${file.display} imports @${imp.token}, outside Claude's working directory: Claude Code asks before such imports and skips them until approved.`);
        continue;
      }
      out.push(...(await this.load(imp.absolute, kind, external, depth + 1, { display: file.display, token: imp.token })));
    }
    return out;
  }

  /** Claude's `cve`: every `.md` below a rules folder (subfolders too), unconditional or conditional ones. */
  async rules(dir: string, kind: ClaudeKind, external: boolean, conditional: boolean): Promise<Loaded[]> {
    const entries = await listUnsorted(dir);
    const out: Loaded[] = [];
    // Claude (Bun's readdir) keeps the order the file system lists the folder in, and so does the view.
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        try {
          const st = await fs.stat(abs);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          continue;
        }
      }
      if (isDir) out.push(...(await this.rules(abs, kind, external, conditional)));
      else if (isFile && e.name.endsWith('.md')) {
        const loaded = await this.load(abs, kind, external);
        if (loaded[0]) loaded[0].isRule = true;
        out.push(...loaded.filter((f) => (conditional ? f.paths !== null : f.paths === null)));
      }
    }
    return out;
  }
}

/**
 * What Claude Code 2.1.318 loads from `fromRel`, reproduced from its bundled memory loader
 * (`_Wo`, `iV`, `cve`, `sQr`, `Gbe`, `Grt` in `@anthropic-ai/claude-agent-sdk-linux-x64/claude`):
 * at start `~/.claude/CLAUDE.md` and the unconditional `~/.claude/rules`, then for every folder
 * from `/` down to the start folder `CLAUDE.md`, `.claude/CLAUDE.md`, the unconditional
 * `.claude/rules/**\/*.md`, `CLAUDE.local.md`, each followed by what it imports (Claude's own
 * `@path` grammar, 4 hops, project imports only inside the start folder). When Claude reads
 * `targetRel` (inside the start folder): user rules whose `paths` match it relative to the start
 * folder, then per folder below the start folder down to the file's folder `CLAUDE.md`,
 * `.claude/CLAUDE.md`, `CLAUDE.local.md`, unconditional and matching conditional rules, then the
 * matching conditional rules of the folders from `/` to the start folder. `paths` use gitignore
 * semantics. From a worktree nested in its main checkout, the main checkout's project files and
 * rules are skipped (its CLAUDE.local.md is not). `content` is the `Contents of <abs> (<kind>):`
 * blocks Claude sends, then the on-read blocks. Folders above the catalog root are listed, not read.
 */
export async function claudeView(ctx: ViewContext, fromRel: string, targetRel: string | null): Promise<AgentView> {
  const { root, homeDir } = ctx.catalog;
  const cwd = fromRel ? path.join(root, fromRel) : root;
  const walk = new Walk(ctx, cwd);
  const files: AgentViewFile[] = [];
  const blocks: string[] = [];
  const notes = [
    'As Claude Code 2.1.318 loads it: @imports follow Claude’s grammar (after whitespace, code and HTML skipped, up to 4 hops) and block-level HTML comments are stripped.',
    'Conditional .claude/rules load when Claude reads a matching file, not when it creates one; paths are gitignore patterns.',
  ];
  const mainCheckout = mainCheckoutOf(cwd);

  const startFiles: Loaded[] = [];
  startFiles.push(...(await walk.load(path.join(homeDir, '.claude', 'CLAUDE.md'), 'User', true)));
  startFiles.push(...(await walk.rules(path.join(homeDir, '.claude', 'rules'), 'User', true, false)));

  for (const dir of ancestorsAbove(root)) {
    const skipProject = mainCheckout !== null && isInside(mainCheckout.main, dir);
    for (const name of skipProject ? ['CLAUDE.local.md'] : ['CLAUDE.md', 'CLAUDE.local.md']) {
      const p = await ctx.probeAbsolute(path.join(dir, name), path.join(dir, name));
      if (p) files.push(loadedRow(p.display, p.size, 'start', 'Above the project: Claude Code reads CLAUDE.md in every parent folder up to /, Atrium does not (content not shown).'));
    }
    if (skipProject && (await ctx.probeAbsolute(path.join(dir, 'CLAUDE.md'), path.join(dir, 'CLAUDE.md')))) {
      notes.push(`${path.join(dir, 'CLAUDE.md')} belongs to the main checkout of this worktree: Claude Code skips it (and its .claude/CLAUDE.md and .claude/rules) and uses the worktree’s own.`);
    }
  }

  for (const dirRel of ctx.chain(fromRel)) {
    const dir = dirRel ? path.join(root, dirRel) : root;
    const skipProject = mainCheckout !== null && isInside(mainCheckout.main, dir) && !isInside(mainCheckout.worktree, dir);
    if (!skipProject) {
      startFiles.push(...(await walk.load(path.join(dir, 'CLAUDE.md'), 'Project', false)));
      startFiles.push(...(await walk.load(path.join(dir, '.claude', 'CLAUDE.md'), 'Project', false)));
      startFiles.push(...(await walk.rules(path.join(dir, '.claude', 'rules'), 'Project', false, false)));
    }
    startFiles.push(...(await walk.load(path.join(dir, 'CLAUDE.local.md'), 'Local', false)));
  }
  for (const f of startFiles) {
    files.push(row(f, 'start'));
    blocks.push(`Contents of ${f.absolute}${KIND_LABEL[f.kind]}:\n\n${f.content.trim()}`);
  }

  const readFiles: Loaded[] = [];
  const startPaths = new Set(startFiles.map((f) => f.absolute));
  if (targetRel !== null) {
    const target = path.join(root, targetRel);
    if (!isInside(cwd, target)) {
      notes.push(`${targetRel} is outside Claude's working directory (${fromRel || '.'}/): reading it attaches no nested CLAUDE.md and no conditional rule.`);
    } else {
      const onRead = new Walk(ctx, cwd);
      const found: Loaded[] = [];
      const matching = (rules: Loaded[], base: string) =>
        rules.filter((f) => {
          f.matched = f.paths ? claudeMatchingPattern(f.paths, path.relative(base, target).split(path.sep).join('/')) : null;
          return f.matched !== null;
        });
      found.push(...matching(await onRead.rules(path.join(homeDir, '.claude', 'rules'), 'User', true, true), cwd));
      const nested: string[] = [];
      for (let d = path.dirname(target); d !== cwd && isInside(cwd, d); d = path.dirname(d)) nested.unshift(d);
      for (const dir of nested) {
        found.push(...(await onRead.load(path.join(dir, 'CLAUDE.md'), 'Project', false)));
        found.push(...(await onRead.load(path.join(dir, '.claude', 'CLAUDE.md'), 'Project', false)));
        found.push(...(await onRead.load(path.join(dir, 'CLAUDE.local.md'), 'Local', false)));
        const copy = new Walk(ctx, cwd);
        for (const p of onRead.processed) copy.processed.add(p);
        found.push(...(await copy.rules(path.join(dir, '.claude', 'rules'), 'Project', false, false)));
        found.push(...matching(await onRead.rules(path.join(dir, '.claude', 'rules'), 'Project', false, true), dir));
        for (const p of copy.processed) onRead.processed.add(p);
      }
      for (const dirRel of ctx.chain(fromRel)) {
        const dir = dirRel ? path.join(root, dirRel) : root;
        if (mainCheckout !== null && isInside(mainCheckout.main, dir) && !isInside(mainCheckout.worktree, dir)) continue;
        found.push(...matching(await onRead.rules(path.join(dir, '.claude', 'rules'), 'Project', false, true), dir));
      }
      for (const f of found) {
        if (startPaths.has(f.absolute)) continue;
        startPaths.add(f.absolute);
        readFiles.push(f);
        files.push(row(f, 'on-read', targetRel));
        blocks.push(`Contents of ${f.absolute}:\n\n${f.content}`);
      }
      notes.push(...onRead.notes.filter((n) => !notes.includes(n)));
    }
  }

  // Conditional rules that stay unloaded, and files Claude does not read at all.
  const loadedDisplays = new Set([...startFiles, ...readFiles].map((f) => f.display));
  const conditional = new Walk(ctx, cwd);
  for (const dirRel of ctx.chain(fromRel)) {
    const dir = dirRel ? path.join(root, dirRel) : root;
    for (const f of await conditional.rules(path.join(dir, '.claude', 'rules'), 'Project', false, true)) {
      if (!loadedDisplays.has(f.display)) files.push({ path: f.display, bytes: f.bytes, loadedBytes: 0, status: 'conditional', when: null, reason: `Loads when Claude reads a file matching ${f.paths!.join(', ')} (gitignore patterns, as Claude reads them after stripping one trailing /**; relative to ${dirRel || 'the repository root'}).`, truncatedAt: null });
    }
  }
  for (const f of ctx.catalog.files) {
    if (f.source === 'user' || loadedDisplays.has(f.relativePath)) continue;
    if (!['agents', 'agents-override', 'gemini', 'blade'].includes(f.format)) continue;
    const inChain = ctx.chain(fromRel).includes(f.scope) || (targetRel !== null && ctx.chain(dirOf(targetRel)).includes(f.scope));
    if (!inChain) continue;
    const via = [...startFiles, ...readFiles].find((l) => l.symlinkTo === f.relativePath);
    // GEMINI.md -> AGENTS.md next to CLAUDE.md -> AGENTS.md: Claude already has the text, so no advice to import it.
    const twin = via ? undefined : f.realPath ? [...startFiles, ...readFiles].find((l) => l.symlinkTo !== null && ctx.entry(l.symlinkTo)?.realPath === f.realPath) : undefined;
    if (via) {
      // Right after the file Claude reads it through, where the text arrives.
      const row: AgentViewFile = { ...ignoredRow(f.relativePath, f.bytes, `Read via ${via.display} (symlink).`), status: 'loaded', loadedBytes: 0, when: startFiles.includes(via) ? 'start' : 'on-read' };
      const at = files.findIndex((r) => r.path === via.display);
      files.splice(at < 0 ? files.length : at + 1, 0, row);
    } else if (twin) files.push(ignoredRow(f.relativePath, f.bytes, `Same file as ${twin.symlinkTo}, which Claude reads via ${twin.display}: its text is already in.`));
    else files.push(ignoredRow(f.relativePath, f.bytes, 'Claude Code does not read this file; add a CLAUDE.md containing @' + path.posix.basename(f.relativePath) + ' to share it.'));
  }
  files.push(...walk.restricted);
  notes.push(...walk.notes.filter((n) => !notes.includes(n)));
  for (const f of [...startFiles, ...readFiles]) {
    if (f.content.length > RULE_LIMITS.claudeWarnChars) notes.push(`${f.display} has ${f.content.length.toLocaleString('en')} characters: Claude Code warns above ${RULE_LIMITS.claudeWarnChars.toLocaleString('en')}.`);
  }
  const loaded = files.filter((f) => f.status === 'loaded');
  return {
    agent: 'claude',
    fromDir: fromRel,
    targetPath: targetRel,
    budgetBytes: null,
    usedBytes: loaded.reduce((sum, f) => sum + f.loadedBytes, 0),
    files,
    notes,
    content: blocks.join('\n\n'),
  };
}

function row(f: Loaded, when: 'start' | 'on-read', targetRel?: string): AgentViewFile {
  let reason: string;
  const base = path.posix.basename(f.display);
  if (f.importedBy) reason = base === 'AGENTS.md' ? `Read via ${f.importedBy.display} (import @${f.importedBy.token}).` : `Imported by ${f.importedBy.display} (@${f.importedBy.token}).`;
  else if (f.isRule && f.matched && targetRel) reason = `paths pattern "${f.matched}" matches ${targetRel} (gitignore semantics; Claude strips a trailing /**).`;
  else if (f.isRule && f.frontmatterUnparsed) reason = 'Claude Code cannot parse its frontmatter (YAML), so it ignores paths and always loads this rule.';
  else if (f.isRule && f.emptyPaths) reason = 'paths is empty, which Claude Code reads as no paths: always loaded.';
  else if (f.isRule) reason = 'Rule without paths: always loaded.';
  else if (f.kind === 'User') reason = 'User memory, loaded in every project.';
  else if (when === 'on-read') reason = `Loaded when Claude reads a file in ${path.posix.dirname(f.display)}/.`;
  else reason = f.kind === 'Local' ? 'Private project memory (CLAUDE.local.md) between the project root and the start folder.' : 'Memory file between the project root and the start folder.';
  if (f.symlinkTo) reason += ` A symlink to ${f.symlinkTo}.`;
  return loadedRow(f.display, f.bytes, when, reason);
}

/**
 * When `cwd` is in a git worktree nested inside its main checkout (`.git` file pointing to
 * `<main>/.git/worktrees/<name>`), the main checkout's folder (with `worktree` = the worktree
 * root); else null. Claude Code (`G5t`/`z5t`) skips the project files of folders in the main
 * checkout but outside the worktree.
 */
function mainCheckoutOf(cwd: string): { main: string; worktree: string } | null {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    try {
      const text = readFileSync(path.join(dir, '.git'), 'utf8');
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(text);
      const gitdir = m ? path.resolve(dir, m[1]) : null;
      const main = gitdir ? /^(.*)[\\/]\.git[\\/]worktrees[\\/][^\\/]+$/.exec(gitdir)?.[1] : undefined;
      if (main && main !== dir && isInside(main, dir)) return { main, worktree: dir };
      return null;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EISDIR') return null;
    }
    if (dir === path.dirname(dir)) return null;
  }
}

/**
 * A folder's entries in the file system's own order. Node's `readdir` sorts them (libuv's
 * scandir) but Claude's does not, so this reads with `opendir`. Empty when unreadable.
 */
async function listUnsorted(dir: string): Promise<Dirent[]> {
  const out: Dirent[] = [];
  try {
    const handle = await fs.opendir(dir);
    for await (const entry of handle) out.push(entry);
  } catch {
    return [];
  }
  return out;
}

/** Absolute folders above `root` up to but excluding `/`, farthest first (Claude reads them all). */
function ancestorsAbove(root: string): string[] {
  const out: string[] = [];
  let dir = path.dirname(root);
  while (dir !== path.dirname(dir)) {
    out.unshift(dir);
    dir = path.dirname(dir);
  }
  return out;
}

function dirOf(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
}
