import type { RuleClassification, RuleFormat } from './types';

/** Rule folders: marker segments, accepted file suffixes, format and priority. */
const RULE_DIRS: ReadonlyArray<{ marker: [string, string]; suffixes: string[]; format: RuleFormat; priority: number }> = [
  { marker: ['.github', 'instructions'], suffixes: ['.instructions.md'], format: 'copilot-instructions', priority: 65 },
  { marker: ['.cursor', 'rules'], suffixes: ['.mdc', '.md'], format: 'cursor', priority: 68 },
  { marker: ['.claude', 'rules'], suffixes: ['.md'], format: 'claude-rules', priority: 70 },
  { marker: ['.blade', 'rules'], suffixes: ['.md'], format: 'blade-rules', priority: 80 },
];

/** Plain instruction files recognised by name anywhere: format and priority; scope = their folder. */
const NAMED_FILES: Readonly<Record<string, { format: RuleFormat; priority: number }>> = {
  '.cursorrules': { format: 'cursor-legacy', priority: 12 },
  'CLAUDE.md': { format: 'claude', priority: 20 },
  'GEMINI.md': { format: 'gemini', priority: 25 },
  'AGENTS.md': { format: 'agents', priority: 40 },
  'AGENTS.override.md': { format: 'agents-override', priority: 50 },
  'BLADE.md': { format: 'blade', priority: 60 },
  'CLAUDE.local.md': { format: 'claude-local', priority: 90 },
};

const RULE_DIR_HINT = /(?:^|\/)\.(?:claude\/rules|blade\/rules|cursor\/rules|github\/instructions)\//;

/** File names a cheap pre-filter can test before {@link classifyProjectPath} (used by the watcher). */
export const RULE_FILE_NAMES: ReadonlySet<string> = new Set([...Object.keys(NAMED_FILES), 'copilot-instructions.md']);

/**
 * Classifies a root-relative POSIX path as a project rule file, or returns null.
 * Files inside a rule folder (`.claude/rules/…`, `.cursor/rules/…`, `.github/instructions/…`,
 * `.blade/rules/…`) belong to that folder whatever their name; the earliest marker in the path
 * wins. Scope of a folder-based file = the directory containing the marker's first segment.
 * Names are case-sensitive, as in the tools themselves. Pure; never throws.
 */
export function classifyProjectPath(rel: string): RuleClassification | null {
  // fast path for the many files that are not rules: every rule file's name ends in `.md`, `.mdc`
  // or is `.cursorrules` (called for every file of a listing, before anything is allocated)
  if (!rel.endsWith('.md') && !rel.endsWith('.mdc') && !rel.endsWith('.cursorrules')) return null;
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  // every rule folder's marker ends in `rules/` or `instructions/`
  if (!RULE_FILE_NAMES.has(name) && ((!rel.includes('rules/') && !rel.includes('instructions/')) || !RULE_DIR_HINT.test(rel))) return null;
  const segments = rel.split('/');
  for (let i = 0; i < segments.length - 2; i++) {
    for (const dir of RULE_DIRS) {
      if (segments[i] !== dir.marker[0] || segments[i + 1] !== dir.marker[1]) continue;
      if (!dir.suffixes.some((suffix) => name.endsWith(suffix) && name.length > suffix.length)) return null;
      return { format: dir.format, source: 'project', scope: segments.slice(0, i).join('/'), priority: dir.priority };
    }
  }
  const parent = segments.slice(0, -1);
  if (name === 'copilot-instructions.md' && parent[parent.length - 1] === '.github') {
    return { format: 'copilot', source: 'project', scope: parent.slice(0, -1).join('/'), priority: 10 };
  }
  if (name === 'CLAUDE.md' && parent[parent.length - 1] === '.claude') {
    return { format: 'claude', source: 'project', scope: parent.slice(0, -1).join('/'), priority: 30 };
  }
  const named = Object.hasOwn(NAMED_FILES, name) ? NAMED_FILES[name] : undefined;
  if (!named) return null;
  return { format: named.format, source: named.format === 'claude-local' ? 'local' : 'project', scope: parent.join('/'), priority: named.priority };
}

/**
 * Classifies a home-relative POSIX path (`.claude/CLAUDE.md`, `.claude/rules/x.md`,
 * `.codex/AGENTS.md`, `.codex/AGENTS.override.md`, `.gemini/GEMINI.md`) as a user-level rule file,
 * or null. User files are scoped to the catalog root.
 */
export function classifyUserPath(homeRel: string): RuleClassification | null {
  const user = (format: RuleFormat, priority: number): RuleClassification => ({ format, source: 'user', scope: '', priority });
  if (homeRel === '.claude/CLAUDE.md') return user('claude', 20);
  if (homeRel.startsWith('.claude/rules/') && homeRel.endsWith('.md') && !homeRel.endsWith('/.md')) return user('claude-rules', 70);
  if (homeRel === '.codex/AGENTS.md') return user('agents', 40);
  if (homeRel === '.codex/AGENTS.override.md') return user('agents-override', 50);
  if (homeRel === '.gemini/GEMINI.md') return user('gemini', 25);
  return null;
}

/** Formats whose `@path` tokens are imports (Claude formats, GEMINI.md, AGENTS.md). */
export function formatSupportsImports(format: RuleFormat): boolean {
  return format === 'claude' || format === 'claude-local' || format === 'claude-rules' || format === 'gemini' || format === 'agents' || format === 'agents-override';
}

/** Number of `/`-separated segments of a scope ('' = 0): the first ordering key after source. */
export function scopeDepth(scope: string): number {
  return scope === '' ? 0 : scope.split('/').length;
}
