import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentView } from '../../../src/main/core/rules/agentViews';
import { CLAUDE_ENTRY } from '../../support/claude';
import { runAgentDirect } from '../../support/acpDirect';
import { endsWithToolResult, startFakeAnthropic, type FakeAnthropic, type FakeRequest } from '../../support/fakeAnthropic';
import { agentTestEnv } from '../../support/policy';
import { buildCatalog, makeHome, makeRepo, unsorted, type Tree } from '../../unit/rules/helpers';

/**
 * Conformance of the Claude view with Claude Code 2.1.318 itself (driven by claude-agent-acp
 * 0.101.0, no Atrium in between): the `Contents of <abs>…` blocks Claude sends in its main turn
 * and the nested-memory blocks it attaches after reading one file must be, file by file and in
 * order, what `agentView(catalog, 'claude', from, target)` predicts.
 */
const installed = fs.existsSync(CLAUDE_ENTRY);
if (!installed) console.log(`skipping Claude conformance: ${CLAUDE_ENTRY} is not installed (npm install the devDependencies)`);

/** `Contents of <abs>[ (<kind>)]:\n\n<text>` blocks of one text, as [header, text] pairs. */
function contentsBlocks(text: string): Array<{ header: string; text: string }> {
  const out: Array<{ header: string; text: string }> = [];
  const re = /(?:^|\n)Contents of (\/[^\n]*?):\n\n/g;
  const starts = [...text.matchAll(re)];
  for (let i = 0; i < starts.length; i++) {
    const m = starts[i];
    const begin = m.index + m[0].length;
    const end = i + 1 < starts.length ? starts[i + 1].index : text.length;
    out.push({ header: m[1], text: text.slice(begin, end) });
  }
  return out;
}

/** Every text block of the request's user messages, in order. */
function userTexts(req: FakeRequest): string[] {
  const out: string[] = [];
  for (const m of req.body.messages ?? []) {
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') out.push(m.content);
    else
      for (const b of m.content) {
        if (b.type === 'text' && b.text) out.push(b.text);
        if (b.type === 'tool_result' && Array.isArray(b.content)) for (const c of b.content as Array<{ type: string; text?: string }>) if (c.type === 'text' && c.text) out.push(c.text);
      }
  }
  return out;
}

const hasTools = (req: FakeRequest) => Array.isArray((req.body as { tools?: unknown[] }).tools) && ((req.body as { tools?: unknown[] }).tools?.length ?? 0) > 0;

interface Run {
  start: Array<{ header: string; text: string }>;
  onRead: Array<{ header: string; text: string }>;
  requests: FakeRequest[];
}

const fakes: FakeAnthropic[] = [];
afterAll(async () => {
  for (const f of fakes) await f.close();
});

/** Runs Claude in `cwd` with `home`; its main turn reads `readPath`; returns the blocks it sent. */
async function runClaude(cwd: string, home: string, readPath: string): Promise<Run> {
  let asked = false;
  const fake = await startFakeAnthropic((req) => {
    if (hasTools(req) && !endsWithToolResult(req) && !asked) {
      asked = true;
      return { toolUse: { name: 'Read', input: { file_path: readPath } } };
    }
    return { text: 'Done.' };
  });
  fakes.push(fake);
  const env = agentTestEnv(/^(ANTHROPIC_|CLAUDE)/, { HOME: home, IS_SANDBOX: '1', ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'sk-ant-fake', DISABLE_AUTOUPDATER: '1' });
  await runAgentDirect({ command: process.execPath, args: [CLAUDE_ENTRY], cwd, env, prompts: [`Read ${readPath}`], timeoutMs: 150_000 });
  const main = fake.requests.find((r) => hasTools(r) && !endsWithToolResult(r));
  const after = fake.requests.find((r) => hasTools(r) && endsWithToolResult(r));
  if (process.env.ATRIUM_DUMP_CLAUDE) fs.writeFileSync(process.env.ATRIUM_DUMP_CLAUDE, JSON.stringify(fake.requests, null, 1));
  if (!main || !after) throw new Error(`Claude sent no main turn or no request after the tool result (${fake.requests.length} requests)`);
  const start = userTexts(main).flatMap(contentsBlocks);
  const startHeaders = new Set(start.map((b) => b.header));
  const onRead = userTexts(after)
    .flatMap(contentsBlocks)
    .filter((b) => !startHeaders.has(b.header));
  return { start, onRead, requests: fake.requests };
}

/** The view's blocks (its `content`), split by the same parser, start and on-read apart. */
async function predicted(root: string, home: string, fromRel: string, targetRel: string) {
  const catalog = await buildCatalog(root, { home });
  const view = await agentView(catalog, 'claude', fromRel, targetRel);
  const blocks = contentsBlocks(view.content);
  const startCount = view.files.filter((f) => f.status === 'loaded' && f.when === 'start' && f.loadedBytes > 0).length;
  return { view, start: blocks.slice(0, startCount), onRead: blocks.slice(startCount) };
}

/** Compares path and text per block; Claude wraps its blocks in reminders, so the tail is trimmed. */
const norm = (blocks: Array<{ header: string; text: string }>) => blocks.map((b) => ({ header: b.header, text: b.text.replace(/\s*(?:<\/system-reminder>[\s\S]*)?$/, '').trim() }));

describe('Claude Code 2.1.318 loads what the Claude view predicts', () => {
  it.skipIf(!installed)(
    'nested memory, symlinked CLAUDE.md, @imports Claude skips, gitignore paths, CLAUDE.local.md order',
    async () => {
      const tree: Tree = {
        'CLAUDE.md': 'Root rules.\n\nShared text: @AGENTS.md\nNot imported: @agent-workflow.md: and `@code.md` in a span.\n\n```\n@fenced.md\n```\n\n    @indented.md\n\nAlso @README here.\n<!-- hidden note -->\nEnd.\n\n| a | b |\n|---|---|\n| @cell.md | x |\n\n<div>\n@html.md\n</div>\n\n- item @item.md\n- `run @span-in-list.md` now\n\n> quoted @quote.md\n\nglued**@bold.md** and (@paren.md)\n',
        'cell.md': 'cell text',
        'html.md': 'html text',
        'item.md': 'item text',
        'span-in-list.md': 'span in list text',
        'quote.md': 'quote text',
        'bold.md': 'bold text',
        'paren.md': 'paren text',
        'AGENTS.md': 'Shared agents text.\n',
        'agent-workflow.md': 'workflow text',
        'agent-workflow.md:': 'colon file text',
        'code.md': 'code span text',
        'fenced.md': 'fenced text',
        'indented.md': 'indented text',
        README: 'readme without extension',
        '.claude/CLAUDE.md': 'Dot-claude memory.',
        '.claude/rules/always.md': 'Always rule.',
        '.claude/rules/apps.md': '---\npaths: "apps/**"\n---\nApps rule (gitignore semantics).',
        '.claude/rules/ts.md': '---\npaths: "*.ts"\n---\nTS anywhere.',
        '.claude/rules/py.md': '---\npaths: "**/*.py"\n---\nPython only.',
        '.claude/rules/bad.md': '---\npaths:\n  - **/*.rs\n---\nUnparseable frontmatter rule.',
        '.claude/rules/bom.md': '\uFEFF---\npaths: "**/*.go"\n---\nBOM rule.',
        '.claude/rules/never.md': '---\npaths: []\n---\nEmpty paths rule.',
        'CLAUDE.local.md': 'Local memory.',
        'packages/AGENTS.md': 'Packages agents text.',
        'packages/core/CLAUDE.md': 'Core nested memory.',
        'packages/core/CLAUDE.local.md': 'Core local memory.',
        'packages/core/.claude/rules/src.md': '---\npaths: "src/**"\n---\nCore src rule.',
        'packages/core/src/v3/apps/exec.ts': 'export const x = 1;\n',
      };
      const root = makeRepo(tree);
      fs.symlinkSync('AGENTS.md', path.join(root, 'packages', 'CLAUDE.md'));
      const home = makeHome({ '.claude/CLAUDE.md': 'User memory.', '.claude/rules/user-pkg.md': '---\npaths: "packages/**"\n---\nUser packages rule.' });
      const target = 'packages/core/src/v3/apps/exec.ts';
      const run = await runClaude(root, home, path.join(root, target));
      const view = await predicted(root, home, '', target);
      expect(norm(run.start)).toEqual(norm(view.start));
      expect(norm(run.onRead)).toEqual(norm(view.onRead));
      // What the comparison covers, so it cannot pass on two empty lists.
      const rel = (blocks: Array<{ header: string }>) => blocks.map((b) => b.header.replace(/ \(.*\)$/, '').replace(`${root}/`, '').replace(`${home}/`, '~/'));
      // Claude lists .claude/rules in the file system's order, not sorted.
      const always = unsorted(path.join(root, '.claude/rules')).filter((n) => ['always.md', 'bad.md', 'never.md'].includes(n)).map((n) => `.claude/rules/${n}`);
      expect(rel(run.start)).toEqual(['~/.claude/CLAUDE.md', 'CLAUDE.md', 'AGENTS.md', 'README', 'cell.md', 'item.md', 'quote.md', '.claude/CLAUDE.md', ...always, 'CLAUDE.local.md']);
      expect(rel(run.onRead)).toEqual(['~/.claude/rules/user-pkg.md', 'packages/CLAUDE.md', 'packages/core/CLAUDE.md', 'packages/core/CLAUDE.local.md', 'packages/core/.claude/rules/src.md', ...unsorted(path.join(root, '.claude/rules')).filter((n) => ['apps.md', 'ts.md'].includes(n)).map((n) => `.claude/rules/${n}`)]);
      const rows = Object.fromEntries(view.view.files.map((f) => [f.path, f]));
      expect(rows['AGENTS.md']).toMatchObject({ status: 'loaded', when: 'start', reason: expect.stringContaining('Read via CLAUDE.md (import @AGENTS.md)') });
      expect(rows['packages/AGENTS.md']).toMatchObject({ status: 'loaded', reason: 'Read via packages/CLAUDE.md (symlink).' });
      expect(rows['.claude/rules/bad.md'].reason).toContain('cannot parse its frontmatter');
      expect(rows['.claude/rules/py.md']).toMatchObject({ status: 'conditional' });
      // A BOM before --- does not stop Claude from reading the frontmatter: the rule stays conditional.
      expect(rows['.claude/rules/bom.md']).toMatchObject({ status: 'conditional' });
      expect(rows['.claude/rules/never.md'].reason).toContain('paths is empty');
    },
    200_000,
  );

  it.skipIf(!installed)(
    'from a subfolder: imports above the start folder, the 5th hop and files read outside it attach nothing',
    async () => {
      const root = makeRepo({
        'CLAUDE.md': 'Root memory @AGENTS.md',
        'AGENTS.md': 'Root agents text.',
        'app/CLAUDE.md': 'App memory, see @notes.md',
        'app/notes.md': 'App notes, then @h2.md',
        'app/h2.md': 'Hop 2 @h3.md',
        'app/h3.md': 'Hop 3 @h4.md',
        'app/h4.md': 'Hop 4 @h5.md',
        'app/h5.md': 'Hop 5 is one too deep.',
        'app/.claude/rules/all-ts.md': '---\npaths: "*.ts"\n---\nApp TS rule.',
        'lib/CLAUDE.md': 'Lib memory.',
        'lib/x.ts': 'export {};\n',
      });
      const home = makeHome();
      const run = await runClaude(path.join(root, 'app'), home, path.join(root, 'lib/x.ts'));
      const view = await predicted(root, home, 'app', 'lib/x.ts');
      expect(norm(run.start)).toEqual(norm(view.start));
      expect(norm(run.onRead)).toEqual(norm(view.onRead));
      expect(run.start.map((b) => b.header.replace(/ \(.*\)$/, ''))).toEqual([path.join(root, 'CLAUDE.md'), path.join(root, 'app/CLAUDE.md'), ...['notes', 'h2', 'h3', 'h4'].map((n) => path.join(root, `app/${n}.md`))]);
      expect(run.onRead).toEqual([]);
      expect(view.view.notes.some((n) => n.includes('outside Claude') && n.includes('lib/x.ts'))).toBe(true);
    },
    200_000,
  );

  it.skipIf(!installed)(
    'from a worktree nested in its main checkout: the main checkout’s CLAUDE.md and rules are skipped',
    async () => {
      const main = makeRepo({ 'CLAUDE.md': 'Main memory.', '.claude/rules/main.md': 'Main rule.', 'src/a.ts': 'export {};\n' });
      const git = (...args: string[]) => execFileSync('git', ['-C', main, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { stdio: 'pipe' });
      git('add', '-A');
      git('commit', '-qm', 'init');
      git('worktree', 'add', '-q', '.worktrees/feat');
      const wt = path.join(main, '.worktrees', 'feat');
      fs.writeFileSync(path.join(wt, 'CLAUDE.md'), 'Worktree memory.');
      const home = makeHome();
      const run = await runClaude(wt, home, path.join(wt, 'src/a.ts'));
      const view = await predicted(wt, home, '', 'src/a.ts');
      const inside = (blocks: Array<{ header: string; text: string }>) => blocks.filter((b) => b.header.startsWith(`${wt}/`));
      expect(norm(inside(run.start))).toEqual(norm(inside(view.start)));
      expect(norm(run.onRead)).toEqual(norm(view.onRead));
      const headers = run.start.map((b) => b.header.replace(/ \(.*\)$/, ''));
      expect(headers).toEqual([path.join(wt, 'CLAUDE.md'), path.join(wt, '.claude/rules/main.md')]);
      expect(view.view.notes.some((n) => n.includes('main checkout'))).toBe(true);
    },
    200_000,
  );
});
