import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentView } from '../../../src/main/core/rules/agentViews';
import { claudeImportTokens, claudePathsMatch, readClaudeMemory } from '../../../src/main/core/rules/agentViews/claudeMemory';
import { lintCatalog } from '../../../src/main/core/rules/lint';
import { buildCatalog, makeHome, makeRepo, unsorted } from './helpers';

const tokens = (text: string) => claudeImportTokens(text, '/ws/CLAUDE.md', '/home/u').map((t) => t.token);

describe('Claude Code 2.1.318 @import grammar', () => {
  it('CLAUDE.md -> AGENTS.md: AGENTS.md follows CLAUDE.md as read via the symlink, and a GEMINI.md -> AGENTS.md twin is the same file, not advice to import it', async () => {
    const root = makeRepo({ 'AGENTS.md': 'Shared.\n', 'CLAUDE.local.md': 'Local.\n' });
    fs.symlinkSync('AGENTS.md', path.join(root, 'CLAUDE.md'));
    fs.symlinkSync('AGENTS.md', path.join(root, 'GEMINI.md'));
    const view = await agentView(await buildCatalog(root, { home: makeHome() }), 'claude', '');
    const order = view.files.map((f) => f.path);
    expect(order.indexOf('AGENTS.md')).toBe(order.indexOf('CLAUDE.md') + 1);
    expect(order.indexOf('AGENTS.md')).toBeLessThan(order.indexOf('CLAUDE.local.md'));
    expect(view.files.find((f) => f.path === 'AGENTS.md')).toMatchObject({ status: 'loaded', loadedBytes: 0, reason: 'Read via CLAUDE.md (symlink).' });
    expect(view.files.find((f) => f.path === 'GEMINI.md')).toMatchObject({ status: 'ignored', reason: 'Same file as AGENTS.md, which Claude reads via CLAUDE.md: its text is already in.' });
  });

  it('needs whitespace or line start before @ and keeps trailing punctuation', () => {
    expect(tokens('See @a.md and @agent-workflow.md: then (@paren.md) x@mail.md')).toEqual(['a.md', 'agent-workflow.md:']);
    expect(tokens('@README\n@docs/guide.md#setup\n@my\\ file.md\n@@scoped @/ @#x')).toEqual(['README', 'docs/guide.md', 'my file.md']);
  });

  it('ignores code spans, fences (``` and ~~~), indented code and HTML blocks, not table rows or HTML comments’ surroundings', () => {
    const text = ['Span `@span.md` here.', '', '```', '@fence.md', '```', '', '~~~', '@tilde.md', '~~~', '', '    @indented.md', '', '| a | b |', '|---|---|', '| @cell.md | x |', '', '<div>', '@html.md', '</div>', '', '<!-- c --> after @after-comment.md', '', '- item @item.md', '> quote @quote.md', '# Head @head.md'].join('\n');
    expect(tokens(text)).toEqual(['cell.md', 'after-comment.md', 'item.md', 'quote.md', 'head.md']);
  });

  it('resolves relative to the file and ~/ to the home folder', () => {
    const found = claudeImportTokens('@./a.md @~/x.md @../up.md @/abs/b.md', '/ws/sub/CLAUDE.md', '/home/u');
    expect(found.map((t) => t.absolute)).toEqual(['/ws/sub/a.md', '/home/u/x.md', '/ws/up.md', '/abs/b.md']);
  });
});

describe('Claude Code 2.1.318 frontmatter and paths', () => {
  it('reads paths as Claude does: BOM dropped, unquoted scalar repaired, list items with ** unparsed', () => {
    expect(readClaudeMemory('\uFEFF---\npaths: "**/*.go"\n---\nBody')).toMatchObject({ paths: ['**/*.go'], content: 'Body', frontmatterUnparsed: false });
    expect(readClaudeMemory('---\npaths: **/*.ts, src/{a,b}/**\n---\nBody').paths).toEqual(['**/*.ts', 'src/a', 'src/b']);
    expect(readClaudeMemory('---\npaths:\n  - **/*.rs\n---\nBody')).toMatchObject({ paths: null, frontmatterUnparsed: true, content: 'Body' });
    expect(readClaudeMemory('---\npaths: ["**"]\n---\nBody').paths).toBeNull();
    expect(readClaudeMemory('Intro\n\n<!-- note -->\n\nText').content).toBe('Intro\n\nText');
  });

  it('matches paths with gitignore semantics, not minimatch', () => {
    expect(claudePathsMatch(['apps'], 'packages/core/src/v3/apps/exec.ts')).toBe(true);
    expect(claudePathsMatch(['*.ts'], 'a/b/c.ts')).toBe(true);
    expect(claudePathsMatch(['/src'], 'lib/src/a.ts')).toBe(false);
    expect(claudePathsMatch(['src/*.ts'], 'src/deep/a.ts')).toBe(false);
    expect(claudePathsMatch(['*.ts'], '../x.ts')).toBe(false);
  });
});

describe('Claude view (Claude Code 2.1.318)', () => {
  it('orders a folder CLAUDE.md (+ imports), .claude/CLAUDE.md, .claude/rules, CLAUDE.local.md and counts imported bytes', async () => {
    const dir = makeRepo({
      'CLAUDE.md': 'Root @AGENTS.md',
      'AGENTS.md': 'Shared',
      '.claude/CLAUDE.md': 'Dot',
      '.claude/rules/r.md': 'Rule',
      '.claude/rules/bad.md': '---\npaths:\n  - **/*.rs\n---\nBad',
      'CLAUDE.local.md': 'Local',
    });
    const view = await agentView(await buildCatalog(dir), 'claude', '');
    const loaded = view.files.filter((f) => f.status === 'loaded' && f.loadedBytes > 0);
    // Inside .claude/rules Claude keeps the file system's listing order.
    const rules = unsorted(path.join(dir, '.claude/rules')).map((n) => `.claude/rules/${n}`);
    expect(loaded.map((f) => f.path)).toEqual(['CLAUDE.md', 'AGENTS.md', '.claude/CLAUDE.md', ...rules, 'CLAUDE.local.md']);
    expect(loaded.find((f) => f.path === 'AGENTS.md')!.reason).toBe('Read via CLAUDE.md (import @AGENTS.md).');
    expect(loaded.find((f) => f.path === '.claude/rules/bad.md')!.reason).toContain('cannot parse its frontmatter');
    expect(view.usedBytes).toBe(loaded.reduce((s, f) => s + f.bytes, 0));
    expect(view.usedBytes).toBe('Root @AGENTS.md'.length + 'Shared'.length + 3 + 4 + fs.statSync(path.join(dir, '.claude/rules/bad.md')).size + 5);
    expect(view.content).toBe(
      [
        `Contents of ${dir}/CLAUDE.md (project instructions, checked into the codebase):\n\nRoot @AGENTS.md`,
        `Contents of ${dir}/AGENTS.md (project instructions, checked into the codebase):\n\nShared`,
        `Contents of ${dir}/.claude/CLAUDE.md (project instructions, checked into the codebase):\n\nDot`,
        ...rules.map((r) => `Contents of ${dir}/${r} (project instructions, checked into the codebase):\n\n${r.endsWith('bad.md') ? 'Bad' : 'Rule'}`),
        `Contents of ${dir}/CLAUDE.local.md (user's private project instructions, not checked in):\n\nLocal`,
      ].join('\n\n'),
    );
  });

  it('says AGENTS.md is read via a CLAUDE.md symlink and does not load it twice', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'Shared', 'pkg/AGENTS.md': 'Pkg', 'pkg/a.ts': '' });
    fs.symlinkSync('AGENTS.md', path.join(dir, 'CLAUDE.md'));
    fs.symlinkSync('AGENTS.md', path.join(dir, 'pkg', 'CLAUDE.md'));
    const view = await agentView(await buildCatalog(dir), 'claude', '', 'pkg/a.ts');
    const byPath = Object.fromEntries(view.files.map((f) => [f.path, f]));
    expect(byPath['AGENTS.md']).toMatchObject({ status: 'loaded', loadedBytes: 0, when: 'start', reason: 'Read via CLAUDE.md (symlink).' });
    expect(byPath['pkg/AGENTS.md']).toMatchObject({ status: 'loaded', when: 'on-read', reason: 'Read via pkg/CLAUDE.md (symlink).' });
    expect(byPath['CLAUDE.md'].reason).toContain('A symlink to AGENTS.md.');
    expect(view.usedBytes).toBe(6 + 3);
  });

  it('follows imports 4 hops deep and skips project imports outside the start folder', async () => {
    const dir = makeRepo({ 'CLAUDE.md': '@AGENTS.md', 'AGENTS.md': 'Root', 'app/CLAUDE.md': '@1.md', 'app/1.md': '@2.md', 'app/2.md': '@3.md', 'app/3.md': '@4.md', 'app/4.md': '@5.md', 'app/5.md': 'five' });
    const view = await agentView(await buildCatalog(dir), 'claude', 'app');
    const loaded = view.files.filter((f) => f.status === 'loaded' && f.loadedBytes > 0).map((f) => f.path);
    expect(loaded).toEqual(['CLAUDE.md', 'app/CLAUDE.md', 'app/1.md', 'app/2.md', 'app/3.md', 'app/4.md']);
    expect(view.notes.some((n) => n.includes('CLAUDE.md imports @AGENTS.md, outside Claude'))).toBe(true);
  });

  it('attaches paths rules by gitignore semantics, user rules relative to the start folder, nothing outside it', async () => {
    const dir = makeRepo({
      'web/.claude/rules/apps.md': '---\npaths: "apps/**"\n---\nApps',
      'web/.claude/rules/ts.md': '---\npaths: "*.ts"\n---\nTS',
      'web/packages/core/src/v3/apps/exec.ts': '',
      'lib/CLAUDE.md': 'Lib',
      'lib/x.ts': '',
    });
    const home = makeHome({ '.claude/rules/user.md': '---\npaths: "packages/**"\n---\nUser' });
    const catalog = await buildCatalog(dir, { home });
    const inside = await agentView(catalog, 'claude', 'web', 'web/packages/core/src/v3/apps/exec.ts');
    const onRead = inside.files.filter((f) => f.when === 'on-read').map((f) => [f.path, f.reason]);
    expect(onRead).toEqual([
      ['~/.claude/rules/user.md', 'paths pattern "packages" matches web/packages/core/src/v3/apps/exec.ts (gitignore semantics; Claude strips a trailing /**).'],
      ['web/.claude/rules/apps.md', 'paths pattern "apps" matches web/packages/core/src/v3/apps/exec.ts (gitignore semantics; Claude strips a trailing /**).'],
      ['web/.claude/rules/ts.md', 'paths pattern "*.ts" matches web/packages/core/src/v3/apps/exec.ts (gitignore semantics; Claude strips a trailing /**).'],
    ]);
    const outside = await agentView(catalog, 'claude', 'web', 'lib/x.ts');
    expect(outside.files.filter((f) => f.when === 'on-read')).toEqual([]);
    expect(outside.notes.join('\n')).toContain("lib/x.ts is outside Claude's working directory");
  });

  it('from a worktree nested in the main checkout lists the main checkout’s CLAUDE.local.md only', async () => {
    const main = makeRepo({ 'CLAUDE.md': 'Main', 'CLAUDE.local.md': 'Main local', 'a.txt': 'a' });
    const git = (...args: string[]) => execFileSync('git', ['-C', main, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { stdio: 'pipe' });
    git('add', 'a.txt', 'CLAUDE.md');
    git('commit', '-qm', 'init');
    git('worktree', 'add', '-q', 'wt');
    const wt = path.join(main, 'wt');
    const view = await agentView(await buildCatalog(wt), 'claude', '');
    expect(view.files.filter((f) => f.path.startsWith('/')).map((f) => f.path)).toEqual([path.join(main, 'CLAUDE.local.md')]);
    expect(view.files.find((f) => f.path === 'CLAUDE.md')).toMatchObject({ status: 'loaded', when: 'start' });
    expect(view.notes.join('\n')).toContain('main checkout');
  });
});

describe('lint: imports Claude Code skips', () => {
  it('warns for an import Atrium expands and Claude does not, not for one both expand', async () => {
    const dir = makeRepo({ 'CLAUDE.md': 'Read @agent-workflow.md: first.\nAlso (@paren.md) and @ok.md\n', 'agent-workflow.md': 'w', 'paren.md': 'p', 'ok.md': 'o' });
    const findings = lintCatalog(await buildCatalog(dir)).findings.filter((f) => f.code === 'claude-skips-import');
    expect(findings.map((f) => [f.path, f.line, f.message.split(':')[0]])).toEqual([
      ['CLAUDE.md', 1, 'Claude Code skips this import of agent-workflow.md'],
      ['CLAUDE.md', 2, 'Claude Code skips this import of paren.md'],
    ]);
    expect(findings[0].fix).toBe('Write @agent-workflow.md on its own, after a space, outside code and HTML.');
  });
});
