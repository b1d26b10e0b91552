import { classify } from '../files/classify';
import type { RuleCatalog } from './catalog';
import { classifyProjectPath } from './classify';

/** An instruction file another agent tool reads that the rule catalog does not (by design). */
export interface OtherToolFile {
  /** Root-relative POSIX path. */
  readonly path: string;
  /** The tool that reads it, for people: "Windsurf", "Cline", … */
  readonly tool: string;
}

const TOOL_NAMES: Readonly<Record<string, string>> = {
  windsurf: 'Windsurf',
  cline: 'Cline',
  codex: 'Codex',
  gemini: 'Gemini CLI',
  cursor: 'Cursor',
  copilot: 'GitHub Copilot',
  claude: 'Claude Code',
  blade: 'Blade',
  agents: 'AGENTS.md tools',
};

/**
 * Cheap pre-filter, a superset of the paths the review's classifier can call an instruction file
 * (named files, `rules` folders and files, `.github/…`), so 100,000-file trees are not classified
 * path by path. The corpus test comparing the review's count with the catalog's guards it.
 */
const MAYBE_INSTRUCTION = /rules|\.github\/|(?:^|\/)(?:AGENTS|AGENTS\.override|CLAUDE|CLAUDE\.local|GEMINI|BLADE)\.md$/;

const memo = new WeakMap<RuleCatalog, readonly OtherToolFile[]>();

/**
 * Workspace files the trust review counts as instruction files (src/main/core/files/classify.ts,
 * the same classifier) that the catalog does not read: `.windsurfrules`, `.clinerules`,
 * `.windsurf/rules/…` and the like. The catalog's discovery table (`rules/classify.ts`) leaves them out on purpose; listing
 * them explains why the review's "N instruction files" can be larger than the Rules tab's count.
 * Memoised per catalog; code-point order of the workspace listing.
 */
export function otherToolInstructionFiles(catalog: RuleCatalog): readonly OtherToolFile[] {
  const cached = memo.get(catalog);
  if (cached) return cached;
  const noPlugins = new Map<string, string>();
  const out: OtherToolFile[] = [];
  for (const rel of catalog.workspaceFiles) {
    // the RegExp needs one of these substrings; `includes` rules out most files for less
    if (!rel.includes('rules') && !rel.includes('.github/') && !rel.endsWith('.md')) continue;
    if (!MAYBE_INSTRUCTION.test(rel)) continue;
    const role = classify(rel, noPlugins);
    if (role?.role !== 'instruction' || classifyProjectPath(rel) !== null) continue;
    out.push(Object.freeze({ path: rel, tool: TOOL_NAMES[role.tool] ?? role.tool }));
  }
  const frozen = Object.freeze(out);
  memo.set(catalog, frozen);
  return frozen;
}
