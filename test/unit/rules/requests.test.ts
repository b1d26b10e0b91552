import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDispatcher, type Dispatcher } from '../../../src/main/core/dispatcher';
import { createEngine, type Engine } from '../../../src/main/core/engine';
import { fixedGate } from '../../../src/main/core/trust/gate';
import { REQUEST_NAMES } from '../../../src/shared/contract';
import { runCli } from '../../support/cli';
import { materialize } from '../../support/corpus';
import { fixtureWorkspace } from '../../support/fixtures';
import { corpusIt } from '../../support/corpusTests';
import { tempDir } from '../../support/tempDir';
import { eventually, makeHome, makeRepo } from './helpers';

let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

function open(trusted: boolean): { engine: Engine; dispatcher: Dispatcher } {
  engine = createEngine({ dataDir: tempDir('atrium-data-'), homeDir: makeHome(), trustGate: fixedGate(trusted) });
  const dispatcher = createDispatcher(engine, {
    'app.info': () => ({ version: 't', host: 'browser', dataDir: '/d', homeDir: '/h', capabilities: { nativeFolderPicker: false } }),
    'app.pickFolder': () => ({ path: null }),
  });
  return { engine, dispatcher };
}

describe('rules.* requests and the rulesChanged event (contract src/shared/contract/rules.ts)', () => {
  it('are all in the contract', () => {
    for (const name of ['rules.list', 'rules.file', 'rules.explain', 'rules.agentView', 'rules.lint', 'rules.completePath', 'rules.refresh']) expect(REQUEST_NAMES).toContain(name);
  });

  it('answer for a workspace with results that pass the contract schemas', async () => {
    const { engine: e, dispatcher } = open(true);
    const dir = makeRepo({ 'AGENTS.md': 'root', '.claude/rules/ts.md': '---\npaths: "src/**/*.ts"\n---\nts', 'src/a.ts': '', 'src/b.ts': '' });
    const { workspace } = e.workspaces.add(dir);
    const list = await dispatcher.call('rules.list', { workspaceId: workspace.id });
    expect(list).toMatchObject({ root: dir, trust: 'trusted', scopes: [{ scope: '', depth: 0 }] });
    const ts = list.files.find((f) => f.path === '.claude/rules/ts.md')!;
    const detail = await dispatcher.call('rules.file', { workspaceId: workspace.id, id: ts.id });
    expect(detail.patterns).toEqual([{ pattern: 'src/**/*.ts', matches: 2, capped: false, sample: ['src/a.ts', 'src/b.ts'] }]);
    expect(detail.frontmatter).toMatchObject({ data: { paths: 'src/**/*.ts' }, mode: 'yaml' });
    expect(detail.rendered).toContain('conditional="true"');
    const explained = await dispatcher.call('rules.explain', { workspaceId: workspace.id, path: 'src/a.ts' });
    expect(explained.static.map((r) => r.path)).toEqual(['AGENTS.md']);
    expect(explained.contextual).toEqual([expect.objectContaining({ path: '.claude/rules/ts.md', reason: 'pattern-match', matchedPattern: 'src/**/*.ts' })]);
    expect(explained.budget).toEqual({ static: { maxBytes: 49152, usedBytes: 4 }, contextual: { maxBytes: 32768, usedBytes: 2 } });
    const codex = await dispatcher.call('rules.explain', { workspaceId: workspace.id, path: 'src/a.ts', agent: 'codex' });
    expect(codex.agentView?.agent).toBe('codex');
    expect((await dispatcher.call('rules.completePath', { workspaceId: workspace.id, prefix: 'src/' })).entries).toHaveLength(2);
    expect((await dispatcher.call('rules.lint', { workspaceId: workspace.id })).counts.error).toBe(0);
    expect((await dispatcher.call('rules.agentView', { workspaceId: workspace.id, agent: 'gemini' })).agent).toBe('gemini');
    expect((await dispatcher.call('rules.refresh', { workspaceId: workspace.id })).catalogSha256).toBe(list.catalogSha256);
    expect(await dispatcher.dispatch('rules.file', { workspaceId: workspace.id, id: 'project:nope' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await dispatcher.dispatch('rules.explain', { workspaceId: workspace.id, path: 'a', from: '/' })).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
    expect(await dispatcher.dispatch('rules.list', { workspaceId: 'missing' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('push rulesChanged when a rule file changes on disk', async () => {
    const { engine: e, dispatcher } = open(true);
    const dir = makeRepo({ 'AGENTS.md': 'v1' });
    const { workspace } = e.workspaces.add(dir);
    const events: Array<{ event: string; payload: unknown }> = [];
    e.bus.subscribe((event, payload) => events.push({ event, payload }));
    const first = await dispatcher.call('rules.list', { workspaceId: workspace.id });
    await e.resources.watchReady(dir);
    fs.writeFileSync(path.join(dir, 'AGENTS.md'), 'v2');
    const change = await eventually(() => events.find((x) => x.event === 'rulesChanged'), 20_000, 'rulesChanged');
    expect(change.payload).toEqual({ workspaceId: workspace.id, catalogSha256: expect.not.stringMatching(first.catalogSha256) });
  });
});

describe('atrium rules (real child process)', () => {
  const listExplainLint = (workspace: () => string) => () => {
    const dir = workspace();
    const dataDir = tempDir('atrium-cli-data-');
    const env = { HOME: makeHome({ '.claude/CLAUDE.md': 'user rule' }) };

    const restricted = runCli(['rules', 'list', dir, '--json', '--data-dir', dataDir], env);
    expect(restricted.status).toBe(0);
    const r = restricted.json as { trust: string; files: Array<{ path: string; status: string }> };
    expect(r.trust).toBe('restricted');
    expect(r.files.find((f) => f.path === 'CLAUDE.md')?.status).toBe('restricted');
    expect(r.files.find((f) => f.path === '~/.claude/CLAUDE.md')?.status).toBe('active');

    expect(runCli(['trust', 'set', dir, 'trusted', '--data-dir', dataDir], env).status).toBe(0);
    const listed = runCli(['rules', 'list', dir, '--json', '--data-dir', dataDir], env).json as Record<string, unknown> & { files: Array<Record<string, unknown>> };
    for (const key of ['root', 'catalogSha256', 'files', 'warnings']) expect(listed).toHaveProperty(key);
    for (const key of ['id', 'path', 'format', 'source', 'kind', 'scope', 'priority', 'patterns', 'bytes', 'sha256', 'status', 'imports', 'warnings']) expect(listed.files[0]).toHaveProperty(key);
    expect(listed.files.find((f) => f.path === 'services/api/AGENTS.md')?.status).toBe('overridden');

    const explained = runCli(['rules', 'explain', dir, '--path', 'services/api/src/handler.ts', '--budget', '4096', '--json', '--data-dir', dataDir], env);
    expect(explained.status).toBe(0);
    const e = explained.json as Record<string, unknown> & { contextual: Array<Record<string, unknown>> };
    for (const key of ['static', 'contextual', 'dropped', 'contentBytes', 'provenanceSha256', 'content']) expect(e).toHaveProperty(key);
    expect(e.contextual).toEqual([expect.objectContaining({ path: '.claude/rules/api.md', reason: 'pattern-match', matchedPattern: 'services/api/**' })]);

    const loadedId = (listed.files.find((f) => f.path === '.claude/rules/api.md') as { id: string }).id;
    const again = runCli(['rules', 'explain', dir, '--path', 'services/api/src/handler.ts', '--loaded', loadedId, '--json', '--data-dir', dataDir], env).json as { contextual: unknown[] };
    expect(again.contextual).toEqual([]);

    const human = runCli(['rules', 'explain', dir, '--path', 'services/api/src/handler.ts', '--agent', 'claude', '--data-dir', dataDir], env);
    expect(human.stdout).toContain('Claude Code, session starting in (root)');

    const lint = runCli(['rules', 'lint', dir, '--json', '--data-dir', dataDir], env).json as { findings: Array<{ path: string; code: string }> };
    expect(lint.findings).toEqual(expect.arrayContaining([expect.objectContaining({ path: '.claude/rules/hidden.md', code: 'hidden-characters' })]));

    expect(runCli(['rules', 'explain', dir, '--path', 'x', '--budget', '-3', '--data-dir', dataDir], env).status).toBe(2);
    expect(runCli(['rules', 'explain', dir, '--path', 'x', '--agent', 'vim', '--data-dir', dataDir], env).status).toBe(2);
  };
  it('list, explain and lint print the contract JSON; project rules load only once the folder is trusted (fixture kitchen-sink)', { timeout: 120_000 }, listExplainLint(() => fixtureWorkspace('kitchen-sink')));
  corpusIt('list, explain and lint print the contract JSON; project rules load only once the folder is trusted (corpus synthetic__kitchen-sink)', { timeout: 120_000 }, listExplainLint(() => materialize('synthetic__kitchen-sink', tempDir('atrium-cli-ws-'))));
});
