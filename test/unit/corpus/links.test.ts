/**
 * A corpus symlink may arrive as a real symlink or, after a checkout with `core.symlinks=false`, as
 * a text file holding its target (git's fallback). The test helper finds them in either form and
 * lays them down in one chosen form, so the corpus tests see the same workspace either way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintCatalog } from '../../../src/main/core/rules/lint';
import { corpusLinks, layLinks, materialize, sharedDir, type CorpusLinks } from '../../support/corpus';
import { corpusIt } from '../../support/corpusTests';
import { tempDir } from '../../support/tempDir';
import { buildCatalog } from '../rules/helpers';

/** Every path of a workspace (without .git) with its kind and its text or link target. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (child === '.git') continue;
      const abs = path.join(root, child);
      if (e.isSymbolicLink()) out[child] = `link ${fs.readlinkSync(abs)}`;
      else if (e.isDirectory()) walk(child);
      else out[child] = `file ${fs.readFileSync(abs, 'utf8')}`;
    }
  };
  walk('');
  return out;
}

/** A copy of a corpus entry with every link in the other form (text file ↔ symlink). */
function flipped(entryDir: string): string {
  const copy = path.join(tempDir('atrium-flipped-'), path.basename(entryDir));
  fs.cpSync(entryDir, copy, { recursive: true, verbatimSymlinks: true });
  for (const [rel, target] of corpusLinks(entryDir)) {
    const at = path.join(copy, rel);
    const wasLink = fs.lstatSync(at).isSymbolicLink();
    fs.chmodSync(path.dirname(at), 0o755); // the shared corpus is read-only; its copy keeps the modes
    fs.rmSync(at, { force: true });
    if (wasLink) fs.writeFileSync(at, target);
    else fs.symlinkSync(target, at);
  }
  return copy;
}

describe('corpus links, whichever form they arrived in (fixture entry)', () => {
  function entry(): string {
    const dir = path.join(tempDir('atrium-entry-'), 'owner__repo');
    const tree = ['AGENTS.md', '.claude/CLAUDE.md', '.claude/skills/x', '.claude/skills/far', 'skills/x/SKILL.md', '.gitignore', 'docs/readme.md', 'notes.txt'];
    fs.mkdirSync(path.join(dir, '.claude/skills'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'docs'));
    fs.writeFileSync(path.join(dir, 'TREE.txt'), `${tree.join('\n')}\n`);
    fs.writeFileSync(path.join(dir, 'AGENTS.md'), '# Rules\n');
    fs.writeFileSync(path.join(dir, '.claude/CLAUDE.md'), '../AGENTS.md'); // text form of a file link
    fs.symlinkSync('../../skills/x', path.join(dir, '.claude/skills/x')); // real folder link
    fs.writeFileSync(path.join(dir, '.claude/skills/far'), '../../../../.agents/skills/far'); // text form, dangling outside the repo
    fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules'); // one line, no newline, but no such path: content
    fs.writeFileSync(path.join(dir, 'docs/readme.md'), 'notes.txt is below'); // not a bare path
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'AGENTS.md\n'); // ends with a newline: git never writes one for a link
    return dir;
  }

  it('finds real symlinks and the text files that can only be one, and leaves one-line content alone', () => {
    expect(Object.fromEntries(corpusLinks(entry()))).toEqual({
      '.claude/CLAUDE.md': '../AGENTS.md',
      '.claude/skills/x': '../../skills/x',
      '.claude/skills/far': '../../../../.agents/skills/far',
    });
  });

  it.each<CorpusLinks>(['symlink', 'text'])('lays every link down as %s, the same for the entry and for its flipped copy', (mode) => {
    const original = entry();
    const results = [original, flipped(original)].map((source) => {
      const ws = tempDir('atrium-ws-');
      fs.cpSync(source, ws, { recursive: true, verbatimSymlinks: true });
      layLinks(ws, corpusLinks(source), mode);
      return snapshot(ws);
    });
    expect(results[1]).toEqual(results[0]);
    const expected = mode === 'symlink' ? 'link ../AGENTS.md' : 'file ../AGENTS.md';
    expect(results[0]['.claude/CLAUDE.md']).toBe(expected);
    expect(results[0]['.gitignore']).toBe('file node_modules');
  });
});

describe('materialized corpus entries are the same whichever form their links arrived in', () => {
  corpusIt('0xBigBoss (25 dangling skill links and AGENTS.local.md): the entry and a copy with every link flipped materialize alike, as text or as symlinks', { timeout: 240_000 }, () => {
    const source = path.join(sharedDir, 'corpus', '0xBigBoss__claude-code');
    const links = corpusLinks(source);
    expect(links.size).toBe(26);
    expect(links.get('AGENTS.local.md')).toBe('CLAUDE.local.md');
    const copy = flipped(source);
    for (const mode of ['text', 'symlink'] as const) {
      const a = snapshot(materialize(source, tempDir('atrium-corpus-'), mode));
      const b = snapshot(materialize(copy, tempDir('atrium-corpus-'), mode));
      expect(b).toEqual(a);
      for (const [rel, target] of links) expect(a[rel]).toBe(`${mode === 'symlink' ? 'link' : 'file'} ${target}`);
    }
  });

  corpusIt('PlatformPlatform: .claude/CLAUDE.md as text is a symlink-as-text finding; as a real symlink it is not', { timeout: 240_000 }, async () => {
    const asText = lintCatalog(await buildCatalog(materialize('platformplatform__PlatformPlatform', tempDir('atrium-corpus-'), 'text'))).findings;
    expect(asText.filter((f) => f.code === 'symlink-as-text').map((f) => f.path)).toEqual(['.claude/CLAUDE.md']);
    const asLink = lintCatalog(await buildCatalog(materialize('platformplatform__PlatformPlatform', tempDir('atrium-corpus-'), 'symlink'))).findings;
    expect(asLink.filter((f) => f.code === 'symlink-as-text')).toEqual([]);
  });
});
