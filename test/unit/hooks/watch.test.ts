import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookWorld, settingsWith, until } from './helpers';

describe('watching hook files and scripts', () => {
  it('pushes hooksChanged with becameModified when an approved script is edited on disk, and when a hook file changes', async () => {
    const w = hookWorld({ watchHooks: true });
    w.write({ '.claude/settings.json': settingsWith('Stop', { type: 'command', command: 'bash .claude/hooks/s.sh' }), '.claude/hooks/s.sh': 'exit 0\n' });
    const { workspace } = w.engine.workspaces.add(w.project);
    const first = await w.engine.hooks.list({ workspaceId: workspace.id });
    await w.engine.hooks.approve({ workspaceId: workspace.id }, [{ id: first.hooks[0].id, digest: first.hooks[0].digest }]);
    await w.engine.hooks.watchersReady();
    w.events.length = 0;

    fs.appendFileSync(path.join(w.project, '.claude/hooks/s.sh'), 'echo changed\n');
    const pushed = await until(() => w.events.find((e) => e.event === 'hooksChanged' && (e.payload as { reason?: string }).reason === 'file'), 10_000, 'a hooksChanged event');
    expect(pushed.payload).toEqual({ workspaceId: workspace.id, reason: 'file', becameModified: [first.hooks[0].id] });

    // a new hook file appearing later is noticed too
    w.events.length = 0;
    await w.engine.hooks.watchersReady();
    w.write({ '.codex/hooks.json': settingsWith('Stop', { type: 'command', command: 'echo new' }) });
    await until(() => w.events.find((e) => e.event === 'hooksChanged'), 10_000, 'an event for the new file');
    expect((await w.engine.hooks.list({ workspaceId: workspace.id })).hooks.map((h) => h.command)).toContain('echo new');
  });

  it('engine.close() closes the watchers', async () => {
    const w = hookWorld({ watchHooks: true });
    w.write({ '.claude/settings.json': settingsWith('Stop', { type: 'command', command: 'echo x' }) });
    const { workspace } = w.engine.workspaces.add(w.project);
    await w.engine.hooks.list({ workspaceId: workspace.id });
    await w.engine.hooks.watchersReady();
    expect(w.engine.hooks.watchedWorkspaces()).toEqual([workspace.id]);
    await w.engine.close();
    expect(w.engine.hooks.watchedWorkspaces()).toEqual([]);
  });

  it('does not watch when watching is off, or for folders that are not workspaces', async () => {
    const off = hookWorld({ watchHooks: false });
    const { workspace } = off.engine.workspaces.add(off.project);
    await off.engine.hooks.list({ workspaceId: workspace.id });
    expect(off.engine.hooks.watchedWorkspaces()).toEqual([]);
    const on = hookWorld({ watchHooks: true });
    await on.engine.hooks.list({ path: on.project });
    expect(on.engine.hooks.watchedWorkspaces()).toEqual([]);
  });
});
