import path from 'node:path';
import { RULE_LIMITS } from '../limits';
import { scopeContains } from '../paths';
import { formatBytes } from '../readSource';
import type { RuleFile } from '../types';
import { ignoredRow, loadedRow, ViewContext, type AgentView, type AgentViewFile, type Probe } from './common';

const MEMORY_FILES: ReadonlyArray<[string, string]> = [
  ['', 'CLAUDE.md'],
  ['.claude', 'CLAUDE.md'],
  ['', 'CLAUDE.local.md'],
];

/**
 * What Claude Code loads from `fromRel` (formats.md §2.1–2.3): `~/.claude/CLAUDE.md` and
 * unconditional `~/.claude/rules`, `CLAUDE.md`/`CLAUDE.local.md` of every folder above the
 * project up to `/`, then per folder from the root down to the start folder `CLAUDE.md`,
 * `.claude/CLAUDE.md`, `CLAUDE.local.md` and unconditional `.claude/rules`; conditional rules
 * (`paths`) and memory files of subfolders load when Claude reads a file there (`targetRel`).
 * Claude ignores AGENTS.md, GEMINI.md and BLADE.md, and Cursor/Copilot keys in `.claude/rules`.
 */
export async function claudeView(ctx: ViewContext, fromRel: string, targetRel: string | null): Promise<AgentView> {
  const files: AgentViewFile[] = [];
  const texts: string[] = [];
  const notes = [
    'Claude Code expands @imports (up to 4–5 hops) and strips block-level HTML comments.',
    'Conditional .claude/rules load when Claude reads a matching file, not when it creates one.',
  ];
  const take = async (p: Probe, when: 'start' | 'on-read', reason: string) => {
    const problem = ctx.problem(p);
    if (problem) return files.push(problem);
    if (p.size > RULE_LIMITS.claudeSkipBytes) return files.push({ ...ignoredRow(p.display, p.size, `Over ${formatBytes(RULE_LIMITS.claudeSkipBytes)}: Claude Code skips it.`), status: 'skipped' });
    const text = await ctx.text(p);
    if (text && text.length > RULE_LIMITS.claudeWarnChars) notes.push(`${p.display} has ${text.length.toLocaleString('en')} characters: Claude Code warns above ${RULE_LIMITS.claudeWarnChars.toLocaleString('en')}.`);
    if (text) texts.push(text);
    files.push(loadedRow(p.display, p.size, when, reason));
  };

  const userMemory = await ctx.probeAbsolute(path.join(ctx.catalog.homeDir, '.claude', 'CLAUDE.md'), '~/.claude/CLAUDE.md');
  if (userMemory) await take(userMemory, 'start', 'User memory, loaded in every project.');
  for (const rule of ctx.catalog.files.filter((f) => f.source === 'user' && f.format === 'claude-rules')) addRule(ctx, rule, targetRel, files, texts, 'start');

  for (const dir of ancestorsAbove(ctx.catalog.root)) {
    for (const name of ['CLAUDE.md', 'CLAUDE.local.md']) {
      const p = await ctx.probeAbsolute(path.join(dir, name), path.join(dir, name));
      if (p) files.push(loadedRow(p.display, p.size, 'start', 'Above the project: Claude Code reads CLAUDE.md in every parent folder up to /, Atrium does not (content not shown).'));
    }
  }

  const chain = ctx.chain(fromRel);
  const below = targetRel ? ctx.chain(dirOf(targetRel)).filter((d) => !chain.includes(d) && scopeContains(fromRel, d)) : [];
  for (const [dirs, when] of [
    [chain, 'start'],
    [below, 'on-read'],
  ] as const) {
    for (const dir of dirs) {
      for (const [sub, name] of MEMORY_FILES) {
        const p = await ctx.probe(sub ? (dir ? `${dir}/${sub}` : sub) : dir, name);
        if (p) await take(p, when, when === 'start' ? 'Memory file between the project root and the start folder.' : `Loaded when Claude reads a file in ${dir}/.`);
      }
      for (const rule of ctx.catalog.files.filter((f) => f.source !== 'user' && f.format === 'claude-rules' && f.scope === dir)) addRule(ctx, rule, targetRel, files, texts, when);
      for (const f of ctx.catalog.files.filter((x) => x.source !== 'user' && x.scope === dir && ['agents', 'agents-override', 'gemini', 'blade'].includes(x.format))) {
        files.push(ignoredRow(f.relativePath, f.bytes, 'Claude Code does not read this file; add a CLAUDE.md containing @' + path.posix.basename(f.relativePath) + ' to share it.'));
      }
    }
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
    content: texts.join('\n\n'),
  };
}

function addRule(ctx: ViewContext, rule: RuleFile, targetRel: string | null, files: AgentViewFile[], texts: string[], when: 'start' | 'on-read'): void {
  const probe: Probe = { absolute: rule.absolutePath, display: rule.relativePath, size: rule.bytes, entry: rule };
  const problem = ctx.problem(probe);
  if (problem) return void files.push(problem);
  if (rule.status === 'inert') return void files.push({ ...ignoredRow(rule.relativePath, rule.bytes, 'Empty or paths: [] — never loads.'), status: 'skipped' });
  if (rule.kind !== 'conditional') {
    if (rule.content) texts.push(rule.content);
    return void files.push(loadedRow(rule.relativePath, rule.bytes, when, rule.conditionKey === null && rule.warnings.some((w) => w.code === 'foreign-key') ? 'No paths (its Cursor/Copilot keys are ignored), so it always loads.' : 'Rule without paths: always loaded.'));
  }
  const rel = targetRel && scopeContains(rule.scope, targetRel) ? (rule.scope ? targetRel.slice(rule.scope.length + 1) : targetRel) : null;
  const hit = rel ? rule.compiledPatterns.find((p) => p.test(rel)) : undefined;
  if (hit) {
    if (rule.content) texts.push(rule.content);
    return void files.push(loadedRow(rule.relativePath, rule.bytes, 'on-read', `paths pattern "${hit.pattern}" matches ${targetRel}.`));
  }
  files.push({ path: rule.relativePath, bytes: rule.bytes, loadedBytes: 0, status: 'conditional', when: null, reason: `Loads when Claude reads a file matching ${rule.patterns.join(', ')}.`, truncatedAt: null });
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
