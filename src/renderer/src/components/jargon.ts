/**
 * Plain words for the field's identifiers that the UI shows as they are (format ids, resume
 * outcomes, priorities, digests), used as visible text or as a tooltip beside the identifier.
 */

/** What each instruction-file format id means: which tool reads such a file, and where it lives. */
export const RULE_FORMAT_WORDS: Readonly<Record<string, string>> = {
  copilot: 'GitHub Copilot: .github/copilot-instructions.md',
  'copilot-instructions': 'GitHub Copilot: .github/instructions/*.instructions.md (applyTo patterns)',
  'cursor-legacy': 'Cursor, legacy single file: .cursorrules',
  cursor: 'Cursor rules: .cursor/rules/*.mdc',
  claude: 'Claude Code: CLAUDE.md (or .claude/CLAUDE.md)',
  'claude-rules': 'Claude Code rules: .claude/rules/*.md (paths patterns)',
  'claude-local': 'Claude Code, your own for this folder: CLAUDE.local.md (not committed)',
  gemini: 'Gemini CLI: GEMINI.md',
  agents: 'AGENTS.md, read by Codex and most agents',
  'agents-override': 'Codex: AGENTS.override.md, read instead of AGENTS.md in its folder',
  blade: 'Blade: BLADE.md',
  'blade-rules': 'Blade rules: .blade/rules/*.md',
};

/** A format id's explanation, or a generic one for an id this table does not know. */
export function ruleFormatWords(format: string): string {
  return RULE_FORMAT_WORDS[format] ?? `instruction file format "${format}"`;
}

/** The tooltip of "priority N": what the number orders. */
export function priorityWords(priority: number): string {
  return `Priority ${priority}: orders files of the same scope folder when they are sent; a higher number comes later, so it reads as more specific (AGENTS.md 40, .claude/rules 70, CLAUDE.local.md 90).`;
}

/** Resume outcomes (`ResumeOutcome`) in words, for badges whose id alone reads as jargon. */
export const RESUME_OUTCOME_WORDS: Readonly<Record<string, string>> = {
  resumed: 'resumed: the agent continued the same session',
  loaded: 'loaded: the agent reloaded the session and its history',
  'replaced-by-new': 'new agent session: the agent could not continue the old one and does not know the earlier context',
  failed: 'failed: the session could not be reattached',
  new: 'new agent session',
};

/** A short label for a resume outcome (the badge text), e.g. `replaced-by-new` → "new agent session". */
export function resumeOutcomeLabel(outcome: string): string {
  return outcome === 'replaced-by-new' ? 'new agent session' : outcome;
}

/** The tooltip of a shortened digest or provenance hash. */
export function digestWords(kind: 'file' | 'catalog' | 'provenance', full: string): string {
  if (kind === 'provenance') return `Provenance hash (sha256 over every file sent and its order): ${full}. Sessions record it, so you can tell later exactly which rules an agent received.`;
  if (kind === 'catalog') return `Catalog digest (sha256 over every instruction file's path, status and content): ${full}. It changes when any instruction file changes.`;
  return `sha256 of the file's bytes: ${full}. An approval or a session record names this digest, so any edit shows up as a different value.`;
}
