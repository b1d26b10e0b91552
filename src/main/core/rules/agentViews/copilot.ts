import path from 'node:path';
import { minimatch } from 'minimatch';
import { relativeToRoot, scopeContains } from '../paths';
import type { RuleFile } from '../types';
import { ignoredRow, loadedRow, ViewContext, type AgentView, type AgentViewFile, type Probe } from './common';

/** `applyTo` values VS Code treats as "every request", attached files or not. */
const EVERYTHING: ReadonlySet<string> = new Set(['**', '**/*', '*']);

/**
 * Whether VS Code Copilot Chat applies an `applyTo` pattern to the absolute path `absolute`
 * (microsoft/vscode src/vs/workbench/contrib/chat/common/promptSyntax/computeAutomaticInstructions.ts
 * `_matches`): each comma-separated pattern is trimmed; `**`, `**\/*` and `*` match every request;
 * a pattern that starts with neither `/` nor `**\/` gets `**\/` in front, so `src/**` matches
 * any `…/src/…` at any depth; the glob is tested against the whole absolute path, ignoring case.
 * Dot folders match (VS Code's glob has no dot rule).
 */
export function copilotApplies(pattern: string, absolute: string): boolean {
  const p = pattern.trim();
  if (p === '') return false;
  if (EVERYTHING.has(p)) return true;
  const anchored = p.startsWith('/') || p.startsWith('**/') ? p : `**/${p}`;
  return minimatch(absolute.split(path.sep).join('/'), anchored, { dot: true, nocase: true });
}

/**
 * What VS Code Copilot Chat (the Local agent, settings at their defaults; VS Code docs
 * "Use custom instructions in VS Code", DateApproved 3/25/2026, and computeAutomaticInstructions.ts)
 * adds to a chat request in this workspace. Modelled from those docs and sources, NOT proven against
 * a running Copilot (there is no offline Copilot to test with). Per workspace folder (VS Code reads
 * no nested `.github` folder and ignores where a session "starts"):
 * - always: `<folder>/.github/copilot-instructions.md`, `<folder>/AGENTS.md` (`chat.useAgentsMdFile`),
 *   `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md` and `~/.claude/CLAUDE.md` (`chat.useClaudeMdFile`);
 * - `<folder>/.github/instructions/**\/*.instructions.md`: applied when `applyTo` matches the target
 *   (see {@link copilotApplies}) one of the request's files; every instruction file, attached or
 *   not, is also listed to the agent in an `<instructions>` block (path, description, applyTo) for
 *   it to read (`_getInstructionsWithPatternsList`); no `applyTo` (or a YAML list) = listed only;
 * - `<folder>/.claude/rules/**\/*.md` the same way with `paths` for `applyTo` (the docs say VS Code
 *   reads Claude's rule format; matching `paths` like `applyTo` is this view's assumption);
 * - nested AGENTS.md only with the experimental `chat.useNestedAgentsMdFiles` (off by default).
 * `fromRel` is recorded but changes nothing; `targetRel` (root-relative) drives `applyTo`.
 */
export async function copilotView(ctx: ViewContext, fromRel: string, targetRel: string | null): Promise<AgentView> {
  const files: AgentViewFile[] = [];
  const texts: string[] = [];
  const notes = [
    'Modelled from the VS Code docs (custom instructions, March 2026) and computeAutomaticInstructions.ts, not proven against a running Copilot: there is no offline Copilot to test with.',
    'VS Code reads instructions per workspace folder; the start folder does not change what it loads.',
    'applyTo patterns match anywhere: VS Code puts **/ in front of a pattern that does not start with / or **/ and matches the absolute path, ignoring case.',
    "Settings assumed at their defaults: chat.useAgentsMdFile and chat.useClaudeMdFile on, chat.useNestedAgentsMdFiles off; user-profile instructions (~/.copilot/instructions, the profile's prompts folder) are not listed.",
  ];
  const root = ctx.catalog.root;
  const folderRel = relativeToRoot(root, ctx.catalog.workspaceDir) ?? '';
  const inFolder = (rel: string) => (folderRel ? `${folderRel}/${rel}` : rel);
  const targetAbs = targetRel === null ? null : path.join(root, ...targetRel.split('/'));
  let used = 0;

  const take = async (p: Probe, when: 'start' | 'on-read', reason: string) => {
    const problem = ctx.problem(p);
    if (problem) return void files.push(problem);
    const text = await ctx.text(p);
    if (text) texts.push(text);
    used += p.size;
    files.push(loadedRow(p.display, p.size, when, reason));
  };

  const always: Array<[string, string]> = [
    ['.github/copilot-instructions.md', 'Repository instructions of the workspace folder, added to every chat request.'],
    ['AGENTS.md', 'AGENTS.md at the workspace folder root (chat.useAgentsMdFile), added to every chat request.'],
    ['CLAUDE.md', 'CLAUDE.md at the workspace folder root (chat.useClaudeMdFile), added to every chat request.'],
    ['.claude/CLAUDE.md', '.claude/CLAUDE.md of the workspace folder (chat.useClaudeMdFile), added to every chat request.'],
    ['CLAUDE.local.md', 'CLAUDE.local.md of the workspace folder (chat.useClaudeMdFile), added to every chat request.'],
  ];
  const userClaude = await ctx.probeAbsolute(path.join(ctx.catalog.homeDir, '.claude', 'CLAUDE.md'), '~/.claude/CLAUDE.md');
  if (userClaude) await take(userClaude, 'start', 'User CLAUDE.md (chat.useClaudeMdFile), added to every chat request.');
  const shown = new Set<string>();
  for (const [rel, reason] of always) {
    const p = await ctx.probe(folderRel, rel);
    if (!p) continue;
    shown.add(p.display);
    await take(p, 'start', reason);
  }

  const instructionsDir = inFolder('.github/instructions');
  const ordered = [...ctx.catalog.files].sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0));
  for (const f of ordered) {
    if (f.source === 'user' || shown.has(f.relativePath)) continue;
    if (f.format === 'copilot-instructions') {
      if (!f.relativePath.startsWith(`${instructionsDir}/`)) {
        files.push(ignoredRow(f.relativePath, f.bytes, `Not in the workspace folder's ${instructionsDir}: VS Code does not read nested .github folders.`));
        continue;
      }
      const p = await ctx.probe('', f.relativePath);
      if (!p) continue;
      const problem = ctx.problem(p);
      if (problem) {
        files.push(problem);
        continue;
      }
      await instructionRow(ctx, f, p, 'applyTo', targetAbs, files, texts, (n) => (used += n));
    } else if (f.format === 'claude-rules' && f.relativePath.startsWith(inFolder('.claude/rules/'))) {
      const p = await ctx.probe('', f.relativePath);
      if (!p) continue;
      const problem = ctx.problem(p);
      if (problem) files.push(problem);
      else await instructionRow(ctx, f, p, 'paths', targetAbs, files, texts, (n) => (used += n));
    } else if (f.format === 'copilot') {
      files.push(ignoredRow(f.relativePath, f.bytes, 'A copilot-instructions.md in a nested .github folder: VS Code reads only the workspace folder\'s own .github/copilot-instructions.md.'));
    } else if (f.format === 'agents' && scopeContains(folderRel, f.scope)) {
      files.push(ignoredRow(f.relativePath, f.bytes, 'A nested AGENTS.md: VS Code lists it only with the experimental chat.useNestedAgentsMdFiles (off by default).'));
    }
  }
  return {
    agent: 'copilot',
    fromDir: fromRel,
    targetPath: targetRel,
    budgetBytes: null,
    usedBytes: used,
    files,
    notes,
    content: texts.join('\n\n'),
  };
}

async function instructionRow(ctx: ViewContext, f: RuleFile, p: Probe, key: 'applyTo' | 'paths', targetAbs: string | null, files: AgentViewFile[], texts: string[], count: (n: number) => void): Promise<void> {
  const listForm = f.warnings.some((w) => w.code === 'apply-to-list');
  if (f.kind === 'always') {
    const text = await ctx.text(p);
    if (text) texts.push(text);
    count(p.size);
    files.push(loadedRow(p.display, p.size, 'start', `${key === 'applyTo' ? 'applyTo: "**"' : 'No paths'}: added to every chat request.`));
    return;
  }
  if (f.kind !== 'conditional' || f.conditionKey !== key || listForm) {
    const why = listForm ? 'applyTo is a YAML list, which VS Code ignores' : `No ${key}`;
    const offered = f.description ? ` by its description ("${f.description}")` : ' by its path only (no description)';
    files.push({ ...ignoredRow(p.display, p.size, `${why}: not attached automatically; VS Code lists it to the agent${offered}, which may read it.`), status: 'conditional' });
    return;
  }
  if (f.patterns.length === 0) {
    files.push({ ...ignoredRow(p.display, p.size, `${key} is empty, so no file attaches it; VS Code only lists it to the agent, which may read it.`), status: 'conditional' });
    return;
  }
  const hit = targetAbs === null ? undefined : f.patterns.find((pat) => copilotApplies(pat, targetAbs));
  if (hit !== undefined) {
    const text = await ctx.text(p);
    if (text) texts.push(text);
    count(p.size);
    files.push(loadedRow(p.display, p.size, 'on-read', `${key} "${hit}" matches the path (VS Code matches **/${hit.replace(/^\*\*\//, '')} against the absolute path, ignoring case).`));
  } else {
    files.push({ ...ignoredRow(p.display, p.size, `Attached when the request's files match ${f.patterns.map((x) => `"${x}"`).join(', ')} (anywhere in the path, any case); until then VS Code only lists it to the agent with its ${key}.`), status: 'conditional' });
  }
}
