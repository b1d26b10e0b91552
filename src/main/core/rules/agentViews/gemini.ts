import path from 'node:path';
import { scopeContains } from '../paths';
import { ignoredRow, loadedRow, ViewContext, type AgentView, type AgentViewFile } from './common';

/**
 * What Gemini CLI loads from `fromRel` (formats.md §3.3): `~/.gemini/GEMINI.md`, `GEMINI.md` in
 * the start folder and each parent up to the project root, and `GEMINI.md` in subfolders of the
 * start folder (gitignored ones excluded), all concatenated with every prompt. Other instruction
 * names are ignored unless `context.fileName` lists them.
 */
export async function geminiView(ctx: ViewContext, fromRel: string, targetRel: string | null = null): Promise<AgentView> {
  const files: AgentViewFile[] = [];
  const texts: string[] = [];
  const notes = ['Gemini expands @imports (max depth 5), except inside code blocks.', 'Gemini has no documented size budget: everything is sent with every prompt.'];
  const take = async (display: string, absolute: string, reason: string) => {
    const p = await ctx.probeAbsolute(absolute, display);
    if (!p) return;
    const problem = ctx.problem(p);
    if (problem) return void files.push(problem);
    const text = await ctx.text(p);
    if (text) texts.push(text);
    files.push(loadedRow(p.display, p.size, 'start', reason));
  };
  await take('~/.gemini/GEMINI.md', path.join(ctx.catalog.homeDir, '.gemini', 'GEMINI.md'), 'Global context file.');
  const chain = ctx.chain(fromRel);
  for (const dir of chain) {
    const display = dir ? `${dir}/GEMINI.md` : 'GEMINI.md';
    await take(display, path.join(ctx.catalog.root, display), 'Between the project root and the start folder.');
  }
  for (const f of ctx.catalog.files) {
    if (f.source === 'user') continue;
    const dir = f.relativePath.includes('/') ? f.relativePath.slice(0, f.relativePath.lastIndexOf('/')) : '';
    if (f.format === 'gemini' && !chain.includes(dir) && scopeContains(fromRel, dir)) {
      await take(f.relativePath, f.absolutePath, 'In a subfolder of the start folder: Gemini loads these at start too.');
    } else if (f.format !== 'gemini' && chain.includes(f.scope) && ['agents', 'agents-override', 'claude', 'claude-local', 'blade'].includes(f.format)) {
      files.push(ignoredRow(f.relativePath, f.bytes, 'Gemini reads only GEMINI.md unless settings.json context.fileName lists this name.'));
    }
  }
  const loaded = files.filter((f) => f.status === 'loaded');
  return { agent: 'gemini', fromDir: fromRel, targetPath: targetRel, budgetBytes: null, usedBytes: loaded.reduce((s, f) => s + f.loadedBytes, 0), files, notes, content: texts.join('\n\n') };
}
