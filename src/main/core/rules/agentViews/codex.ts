import { promises as fs } from 'node:fs';
import path from 'node:path';
import { RULE_LIMITS } from '../limits';
import { isGitWorkTree, scopeContains } from '../paths';
import { formatBytes } from '../readSource';
import { ignoredRow, loadedRow, ViewContext, type AgentView, type AgentViewFile, type Probe } from './common';

const INSTRUCTION_FORMATS: ReadonlySet<string> = new Set(['claude', 'claude-local', 'gemini', 'blade', 'cursor-legacy', 'copilot']);

/**
 * What Codex loads from `fromRel` (formats.md §1.2): the global `~/.codex/AGENTS.override.md`
 * (else `AGENTS.md`; first non-empty, outside the budget), then per folder from the project root
 * (`.git`) down to the start folder the first existing of `AGENTS.override.md`, `AGENTS.md`
 * (an empty override still wins its folder and is skipped), read root-first into one shared
 * 32 KiB budget that truncates silently. Sizes come from the disk, so the truncation point is
 * exact even in restricted mode.
 */
export async function codexView(ctx: ViewContext, fromRel: string, targetRel: string | null = null): Promise<AgentView> {
  const files: AgentViewFile[] = [];
  const notes = [
    'Codex does not expand @imports: @path lines reach the model as plain text.',
    'Codex keeps a UTF-8 BOM as an invisible U+FEFF character.',
    'Codex does not read rule folders (.claude/rules, .cursor/rules, .github/instructions).',
  ];
  const parts: string[] = [];
  const home = ctx.catalog.homeDir;

  let globalText = '';
  for (const name of ['AGENTS.override.md', 'AGENTS.md']) {
    const probe = await ctx.probeAbsolute(path.join(home, '.codex', name), `~/.codex/${name}`);
    if (!probe) continue;
    const text = (await ctx.text(probe)) ?? '';
    if (globalText) files.push(ignoredRow(probe.display, probe.size, 'Codex uses only the first non-empty global file (~/.codex/AGENTS.override.md wins).'));
    else if (text.trim() === '') files.push({ ...ignoredRow(probe.display, probe.size, 'Empty: Codex falls back to the next global file.'), status: 'skipped' });
    else {
      globalText = text;
      files.push(loadedRow(probe.display, probe.size, 'start', 'Global instructions, loaded in full (not counted in the project budget).'));
    }
  }
  if (globalText) parts.push(globalText);

  const git = isGitWorkTree(ctx.catalog.root);
  if (!git) notes.push('No .git at the catalog root: Codex reads only the start folder.');
  const dirs = git ? ctx.chain(fromRel) : [fromRel];
  let remaining = RULE_LIMITS.codexBudgetBytes;
  let used = 0;
  const docs: string[] = [];
  for (const dir of dirs) {
    const override = await ctx.probe(dir, 'AGENTS.override.md');
    const plain = await ctx.probe(dir, 'AGENTS.md');
    const chosen = override ?? plain;
    if (!chosen) continue;
    if (override && plain) files.push(ignoredRow(plain.display, plain.size, `${override.display} in the same folder takes precedence; Codex reads one file per folder.`));
    const row = await budgetRow(ctx, chosen, remaining, chosen === override && plain !== null);
    files.push(row.file);
    remaining -= row.consumed;
    used += row.consumed;
    if (row.text) docs.push(row.text);
  }
  if (docs.length) parts.push(parts.length ? `--- project-doc ---\n\n${docs.join('\n\n')}` : docs.join('\n\n'));

  const chainSet = new Set(dirs);
  for (const f of ctx.catalog.files) {
    if (f.source === 'user') continue;
    const dir = f.relativePath.includes('/') ? f.relativePath.slice(0, f.relativePath.lastIndexOf('/')) : '';
    if (f.format === 'agents' || f.format === 'agents-override') {
      if (!chainSet.has(dir) && scopeContains(fromRel, dir)) files.push(ignoredRow(f.relativePath, f.bytes, 'Below the start folder: Codex reads only the folders from the project root down to where it starts.'));
    } else if (chainSet.has(f.scope) && INSTRUCTION_FORMATS.has(f.format)) {
      files.push(ignoredRow(f.relativePath, f.bytes, 'Codex reads only AGENTS.override.md or AGENTS.md (list this name in project_doc_fallback_filenames to include it).'));
    }
  }
  return {
    agent: 'codex',
    fromDir: fromRel,
    targetPath: targetRel,
    budgetBytes: RULE_LIMITS.codexBudgetBytes,
    usedBytes: used + (globalText ? Buffer.byteLength(globalText) : 0),
    files,
    notes,
    content: parts.join('\n\n'),
  };
}

async function budgetRow(ctx: ViewContext, p: Probe, remaining: number, hidesPlain: boolean): Promise<{ file: AgentViewFile; consumed: number; text: string | null }> {
  const base = { path: p.display, bytes: p.size, when: 'start' as const };
  if (remaining <= 0) {
    return { file: { ...base, loadedBytes: 0, status: 'cut', when: null, reason: `Not read: earlier files used up the ${formatBytes(RULE_LIMITS.codexBudgetBytes)} budget.`, truncatedAt: null }, consumed: 0, text: null };
  }
  const readable = ctx.readable(p);
  const raw = readable ? await readPrefix(p.absolute, Math.min(p.size, remaining)) : null;
  if (raw !== null && raw.toString('utf8').trim() === '') {
    const reason = hidesPlain ? 'Empty, but it still wins its folder, so AGENTS.md here is not used either.' : 'Empty (whitespace only): Codex skips it.';
    return { file: { ...base, loadedBytes: 0, status: 'skipped', when: null, reason, truncatedAt: null }, consumed: 0, text: null };
  }
  const restricted = readable ? '' : ' (restricted mode: size only)';
  if (p.size > remaining) {
    const splitsChar = raw !== null && raw.length > 0 && isInsideCharacter(raw);
    const reason = `Truncated at byte ${remaining} of ${p.size}: Codex drops the last ${formatBytes(p.size - remaining)} silently${splitsChar ? ' and the cut splits a character (U+FFFD)' : ''}.${restricted}`;
    return { file: { ...base, loadedBytes: remaining, status: 'truncated', reason, truncatedAt: remaining }, consumed: remaining, text: raw?.toString('utf8') ?? null };
  }
  return { file: { ...loadedRow(p.display, p.size, 'start', `Project instructions, ${formatBytes(p.size)} of the shared budget.${restricted}`) }, consumed: p.size, text: raw?.toString('utf8') ?? null };
}

async function readPrefix(absolute: string, bytes: number): Promise<Buffer | null> {
  try {
    const handle = await fs.open(absolute, 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

/** True when the buffer ends inside a multi-byte UTF-8 sequence. */
function isInsideCharacter(buffer: Buffer): boolean {
  let i = buffer.length - 1;
  let continuation = 0;
  while (i >= 0 && (buffer[i] & 0xc0) === 0x80 && continuation < 4) {
    continuation++;
    i--;
  }
  if (i < 0) return false;
  const lead = buffer[i];
  const needed = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : 0;
  return needed > continuation;
}
