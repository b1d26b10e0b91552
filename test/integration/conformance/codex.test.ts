import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentView } from '../../../src/main/core/rules/agentViews';
import { readInstallMarker } from '../../../src/main/core/sessions/installer';
import { runAgentDirect } from '../../support/acpDirect';
import { AGENT_CACHE, presetOf } from '../../support/agents';
import { codexTestEnv, writeCodexFakeConfig } from '../../support/codex';
import { endsWithToolOutput, startFakeOpenAI, type FakeOpenAI, type FakeOpenAIRequest } from '../../support/fakeOpenAI';
import { buildCatalog, writeTree, type Tree } from '../../unit/rules/helpers';

/**
 * Conformance of the Codex view with the real Codex 0.166.0 (codex-acp 2.6.0, the pinned preset, no
 * Atrium in between) against the fake Responses endpoint: one prompt, one shell command reading a
 * file. Codex sends its project docs as one user input text, `# AGENTS.md instructions for <cwd>`
 * with the text inside `<INSTRUCTIONS>` (not in `instructions`, which this provider leaves unset);
 * it must equal `agentView(catalog, 'codex', start).content` exactly, before and after the tool call
 * (Codex attaches nothing when a command reads a file in a folder with its own AGENTS.md).
 */

const marker = readInstallMarker(AGENT_CACHE, presetOf('codex'));
const reason = marker ? '' : ` — skipped: codex-acp 2.6.0 is not installed in ${AGENT_CACHE} (set ATRIUM_TEST_AGENT_CACHE or run the *Real tests once)`;
if (!marker) console.log(`conformance/codex${reason}`);

let fake: FakeOpenAI | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await fake?.close();
  fake = null;
  // Codex may still be writing its skills cache for a moment after it is told to stop
  for (const d of dirs.splice(0)) {
    for (let attempt = 0; ; attempt++) {
      try {
        fs.rmSync(d, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
        break;
      } catch (e) {
        if (attempt === 3) {
          console.log(`conformance/codex: could not remove ${d}: ${String(e)}`);
          break;
        }
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
  }
});

const PREFIX = '# AGENTS.md instructions for ';

/** The input texts of a request's user messages that carry Codex's AGENTS.md framing. */
function agentsTexts(req: FakeOpenAIRequest): string[] {
  const out: string[] = [];
  for (const item of req.body.input ?? []) {
    if (item.type !== 'message' || item.role !== 'user' || !Array.isArray(item.content)) continue;
    for (const c of item.content as Array<{ type?: string; text?: unknown }>) if (typeof c.text === 'string' && c.text.startsWith(PREFIX)) out.push(c.text);
  }
  return out;
}

/**
 * A temp world: HOME, CODEX_HOME (fake provider + `extraToml`, global `AGENTS.md` when given) and a
 * git repository `repo` holding `tree`; runs Codex in `repo/<start>` with one `cat <read>` tool call.
 */
async function run(opts: { tree: Tree; start: string; read: string; extraToml?: string; global?: string; trustProject?: boolean; setup?: (repo: string) => void }) {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-conf-codex-')));
  dirs.push(base);
  const home = path.join(base, 'home');
  const codexHome = path.join(base, 'codex-home');
  const repo = path.join(base, 'repo');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(repo, { recursive: true });
  execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '-q', repo]);
  opts.setup?.(repo);
  writeTree(repo, opts.tree);
  fake = await startFakeOpenAI((req) => (endsWithToolOutput(req) ? { text: 'done reading' } : { shell: `cat ${opts.read}` }));
  writeCodexFakeConfig(codexHome, fake.url, opts.extraToml ?? '');
  if (opts.global !== undefined) fs.writeFileSync(path.join(codexHome, 'AGENTS.md'), opts.global);
  if (opts.trustProject) fs.appendFileSync(path.join(codexHome, 'config.toml'), `\n[projects."${repo}"]\ntrust_level = "trusted"\n`);
  const cwd = path.join(repo, ...opts.start.split('/'));
  const result = await runAgentDirect({ command: process.execPath, args: [marker!.entry], cwd, env: codexTestEnv({ HOME: home, CODEX_HOME: codexHome }), prompts: ['read the notes'] });
  const catalog = await buildCatalog(repo, { home });
  const view = await agentView(catalog, 'codex', opts.start, null, { codexHome });
  const main = fake.requests.filter((r) => !r.side);
  return { result, view, main, repo, codexHome, base };
}

describe.skipIf(!marker)(`Codex 0.166.0 sends what the Codex view predicts (real codex-acp, fake Responses endpoint)${reason}`, () => {
  it('global AGENTS.md, then root to start folder: AGENTS.override.md wins its folder, CLAUDE.md as a fallback name, the last file cut at project_doc_max_bytes', async () => {
    const { result, view, main, codexHome } = await run({
      tree: {
        'AGENTS.md': 'Root rule R1.\n',
        'svc/AGENTS.md': 'svc plain, hidden by the override\n',
        'svc/AGENTS.override.md': 'svc override R2\n',
        'svc/web/CLAUDE.md': 'web claude R3\r\nkept with CRLF\r\n',
        'svc/web/app/AGENTS.md': `app rule R4 ${'x'.repeat(200)} TAIL-NOT-SENT\n`,
        'svc/web/app/sub/AGENTS.md': 'below the start folder, never sent\n',
        'svc/web/app/sub/notes.txt': 'the notes\n',
      },
      start: 'svc/web/app',
      read: 'sub/notes.txt',
      extraToml: 'project_doc_fallback_filenames = ["CLAUDE.md"]\nproject_doc_max_bytes = 120',
      global: '\nGlobal G0.\n\n',
    });
    expect(result.stopReasons).toEqual(['end_turn']);
    expect(main.length, 'the turn and the follow-up after the tool result').toBeGreaterThanOrEqual(2);
    expect(main.some(endsWithToolOutput), 'the cat command ran and its output went back').toBe(true);
    expect(view.files.map((f) => [f.path, f.status])).toEqual([
      [`${codexHome}/AGENTS.md`, 'loaded'],
      ['AGENTS.md', 'loaded'],
      ['svc/AGENTS.md', 'ignored'],
      ['svc/AGENTS.override.md', 'loaded'],
      ['svc/web/CLAUDE.md', 'loaded'],
      ['svc/web/app/AGENTS.md', 'truncated'],
      ['svc/web/app/sub/AGENTS.md', 'ignored'],
    ]);
    for (const req of main) expect(agentsTexts(req), 'one AGENTS.md message, the same in every request').toEqual([view.content]);
    expect(view.content).not.toContain('TAIL-NOT-SENT');
    expect(view.content).toContain('Global G0.\n\n--- project-doc ---\n\nRoot rule R1.\n');
  });

  it('a nested git worktree is its own project root: the main checkout’s AGENTS.md is not sent', async () => {
    const { view, main, repo } = await run({
      setup: (r) => {
        fs.writeFileSync(path.join(r, 'README.md'), 'main checkout\n');
        execFileSync('git', ['add', '-A'], { cwd: r });
        execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init'], { cwd: r });
        execFileSync('git', ['worktree', 'add', '-q', 'wt'], { cwd: r });
      },
      tree: {
        'AGENTS.md': 'main checkout rule, not for the worktree\n',
        'wt/AGENTS.md': 'worktree rule W1\n',
        'wt/src/AGENTS.md': 'worktree src rule W2\n',
        'wt/src/notes.txt': 'the notes\n',
      },
      start: 'wt/src',
      read: 'notes.txt',
    });
    expect(fs.statSync(path.join(repo, 'wt', '.git')).isFile(), 'a real worktree has a .git file').toBe(true);
    expect(view.files.filter((f) => f.status === 'loaded').map((f) => f.path)).toEqual(['wt/AGENTS.md', 'wt/src/AGENTS.md']);
    expect(view.files.find((f) => f.path === 'AGENTS.md')?.status).toBe('ignored');
    for (const req of main) expect(agentsTexts(req)).toEqual([view.content]);
    expect(view.content).not.toContain('main checkout rule');
  });

  it("a project trusted in Codex's config.toml adds its .codex/config.toml (fallback name, budget); a doc linking outside the workspace is read by Codex but only sized by the view", async () => {
    const outsideText = 'OUTSIDE-THE-WORKSPACE text\n';
    let outside = '';
    const { view, main } = await run({
      setup: (r) => {
        outside = path.join(path.dirname(r), 'elsewhere.md');
        fs.writeFileSync(outside, outsideText);
        fs.mkdirSync(path.join(r, 'sub'), { recursive: true });
        fs.symlinkSync(outside, path.join(r, 'sub', 'AGENTS.md'));
      },
      tree: {
        '.codex/config.toml': 'project_doc_fallback_filenames = ["GUIDE.md"]\nproject_doc_max_bytes = 90\n',
        'AGENTS.md': 'root rule R1\n',
        'sub/deep/GUIDE.md': `guide G1 ${'g'.repeat(100)} GUIDE-TAIL\n`,
        'sub/deep/notes.txt': 'notes\n',
      },
      start: 'sub/deep',
      read: 'notes.txt',
      trustProject: true,
    });
    const row = view.files.find((f) => f.path === 'sub/AGENTS.md');
    expect(row).toMatchObject({ status: 'restricted', bytes: Buffer.byteLength(outsideText) });
    expect(row?.reason).toContain(`Codex would read ${outside} (outside the workspace)`);
    expect(view.files.find((f) => f.path === 'sub/deep/GUIDE.md')).toMatchObject({ status: 'truncated', truncatedAt: 90 - 13 - Buffer.byteLength(outsideText) });
    expect(view.content).not.toContain('OUTSIDE-THE-WORKSPACE');
    for (const req of main) {
      const [sent] = agentsTexts(req);
      expect(sent, 'Codex does read the linked file').toContain(outsideText);
      // the view's text is Codex's text without the file Atrium refuses to read
      expect(sent.replace(`${outsideText}\n\n`, '')).toBe(view.content);
    }
  });

  it('project_root_markers = [".hg"] in the user config moves the root below the git root; an empty AGENTS.override.md still wins its folder', async () => {
    const { view, main } = await run({
      tree: {
        'AGENTS.md': 'git root rule, above the .hg root\n',
        'pkg/.hg/requires': 'store\n',
        'pkg/AGENTS.md': 'hg root rule H1\n',
        'pkg/a/AGENTS.override.md': ' \n\t\n',
        'pkg/a/AGENTS.md': 'hidden by the empty override\n',
        'pkg/a/notes.txt': 'notes\n',
      },
      start: 'pkg/a',
      read: 'notes.txt',
      extraToml: 'project_root_markers = [".hg"]',
    });
    expect(view.files.map((f) => [f.path, f.status])).toEqual([
      ['pkg/AGENTS.md', 'loaded'],
      ['pkg/a/AGENTS.md', 'ignored'],
      ['pkg/a/AGENTS.override.md', 'skipped'],
      ['AGENTS.md', 'ignored'],
    ]);
    for (const req of main) expect(agentsTexts(req)).toEqual([view.content]);
    expect(view.content).toContain('hg root rule H1');
  });
});
