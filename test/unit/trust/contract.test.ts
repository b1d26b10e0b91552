import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDispatcher, type Dispatcher } from '../../../src/main/core/dispatcher';
import { EVENT_NAMES, REQUEST_NAMES } from '../../../src/shared/contract';
import { ERROR_CODES } from '../../../src/shared/errors';
import { trustWorld, writeFiles, type TrustWorld } from './helpers';

function dispatcherFor(w: TrustWorld): Dispatcher {
  return createDispatcher(w.engine, {
    'app.info': () => ({ version: 't', host: 'browser', dataDir: w.dataDir, homeDir: w.home, capabilities: { nativeFolderPicker: false } }),
    'app.pickFolder': () => ({ path: null }),
  });
}

describe('trust requests through the dispatcher (params and results validated by the contract)', () => {
  it('registers every trust request, the trustChanged event and the new error codes', () => {
    expect(REQUEST_NAMES).toEqual(
      expect.arrayContaining(['trust.status', 'trust.set', 'trust.clear', 'trust.list', 'trust.history', 'trust.review', 'trust.readFile', 'trust.importSuggestions', 'trust.importConfirm']),
    );
    expect(EVENT_NAMES).toContain('trustChanged');
    expect(ERROR_CODES).toEqual(expect.arrayContaining(['TRUST_REFUSED', 'TRUST_NO_PARENT', 'PATH_OUTSIDE_WORKSPACE', 'NOT_A_FILE']));
  });

  it('a workspace: status, review, readFile, set, and its trust in workspaces.list', async () => {
    const w = trustWorld();
    const dir = w.mkdir('proj');
    writeFiles(dir, { '.claude/settings.json': JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo hi' }] }] } }), 'CLAUDE.md': '# hi' });
    const d = dispatcherFor(w);
    const { workspace } = await d.call('workspaces.add', { path: dir });
    expect(workspace.trust.state).toBe('undecided');

    const { status } = await d.call('trust.status', { workspaceId: workspace.id });
    expect(status).toMatchObject({ path: dir, trustRoot: dir, state: 'undecided', parentSuggestion: w.src });

    const { review } = await d.call('trust.review', { workspaceId: workspace.id });
    expect(review.counts).toMatchObject({ hook: 1, instruction: 1, mcpServer: 0 });
    expect(review.items[0]).toMatchObject({ kind: 'hook', detail: { command: 'echo hi' } });
    const file = await d.call('trust.readFile', { workspaceId: workspace.id, path: review.items[0].path });
    expect(file.content).toContain('echo hi');
    expect(await d.dispatch('trust.readFile', { workspaceId: workspace.id, path: '../../..' })).toMatchObject({ ok: false, error: { code: 'PATH_OUTSIDE_WORKSPACE' } });

    const set = await d.call('trust.set', { workspaceId: workspace.id, state: 'trusted' });
    expect(set.change).toMatchObject({ oldState: null, newState: 'trusted' });
    const listed = await d.call('workspaces.list', {});
    expect(listed.workspaces[0].trust).toEqual({ state: 'trusted', decidedBy: dir, inherited: false });
    expect((await d.call('trust.history', { workspaceId: workspace.id })).entries).toHaveLength(1);
    expect((await d.call('trust.review', { path: dir })).review.state).toBe('trusted');
  });

  it('rejects ambiguous targets, refuses home with TRUST_REFUSED, and a missing folder review with PATH_NOT_FOUND', async () => {
    const w = trustWorld();
    const d = dispatcherFor(w);
    expect(await d.dispatch('trust.status', {})).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
    expect(await d.dispatch('trust.status', { path: w.src, workspaceId: 'x' })).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
    expect(await d.dispatch('trust.set', { path: w.src, state: 'maybe' })).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
    expect(await d.dispatch('trust.set', { path: w.home, state: 'trusted' })).toMatchObject({ ok: false, error: { code: 'TRUST_REFUSED' } });
    expect(await d.dispatch('trust.status', { workspaceId: 'nope' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await d.dispatch('trust.review', { path: path.join(w.src, 'missing') })).toMatchObject({ ok: false, error: { code: 'PATH_NOT_FOUND' } });
    expect(await d.dispatch('trust.importConfirm', { decisions: [] })).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
  });
});
