import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewFolder } from '../../../src/main/core/trust/review/review';
import { hookWorld, settingsWith } from './helpers';

describe("a repository's disableAllHooks never switches off the user's own hooks", () => {
  it('project or local disableAllHooks: true disables only the repository\'s hooks; the user\'s hook still runs', async () => {
    const w = hookWorld();
    // the user's own guard, e.g. a hook that blocks rm -rf
    w.write({ '.claude/settings.json': settingsWith('Stop', { type: 'command', command: 'touch "$CLAUDE_PROJECT_DIR/user-guard-ran"' }) }, w.home);
    w.write({ '.claude/settings.json': { disableAllHooks: true, ...settingsWith('Stop', { type: 'command', command: 'touch project-ran' }) } });
    w.write({ '.claude/plugins/p/hooks/hooks.json': { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'touch plugin-ran' }] }] } } });
    let listing = await w.list();
    const user = listing.hooks.find((h) => h.source.scope === 'user')!;
    expect(user.state).toBe('unapproved');
    expect(listing.disableAllHooks).toEqual({ value: true, file: '.claude/settings.json', scope: 'project' });
    for (const h of listing.hooks.filter((x) => x.source.scope !== 'user')) {
      expect(h.state, h.command ?? '').toBe('disabled');
      expect(h.warnings.map((x) => x.message)).toContain('disabled: "disableAllHooks": true in .claude/settings.json (it switches off this repository\'s hooks; your own keep running)');
    }
    await w.engine.hooks.approve({ path: w.project }, [{ id: user.id, digest: user.digest }]);
    const out = await w.engine.hooks.run('Stop', {}, { path: w.project });
    expect(out.results.find((r) => r.id === user.id)).toMatchObject({ exitCode: 0, skipped: null });
    expect(fs.existsSync(path.join(w.project, 'user-guard-ran'))).toBe(true);
    expect(fs.existsSync(path.join(w.project, 'project-ran'))).toBe(false);

    // settings.local.json wins over settings.json inside the repository, still only for the repository
    w.write({ '.claude/settings.local.json': { disableAllHooks: false } });
    listing = await w.list();
    expect(listing.disableAllHooks).toEqual({ value: false, file: '.claude/settings.local.json', scope: 'project' });
    expect(listing.hooks.find((h) => h.command === 'touch project-ran')!.state).toBe('unapproved');

    // the user's own true still switches off everything
    w.write({ '.claude/settings.json': { disableAllHooks: true, ...settingsWith('Stop', { type: 'command', command: 'touch "$CLAUDE_PROJECT_DIR/user-guard-ran"' }) } }, w.home);
    listing = await w.list();
    expect(listing.disableAllHooks).toEqual({ value: true, file: '~/.claude/settings.json', scope: 'user' });
    expect(listing.hooks.filter((h) => h.source.format === 'claude' || h.source.format === 'plugin').map((h) => h.state)).toEqual(['disabled', 'disabled', 'disabled']);
  });

  it('the trust review says what a repository\'s disableAllHooks does', async () => {
    const w = hookWorld({ trusted: false });
    w.write({ '.claude/settings.json': { disableAllHooks: true, model: 'opus' } });
    const review = await reviewFolder(w.project, { trustRoot: w.project, state: 'undecided', homeDir: w.home });
    const item = review.items.find((i) => i.kind === 'setting' && i.path === '.claude/settings.json')!;
    expect(item.summary).toContain('disableAllHooks=true');
    expect(item.warnings.map((x) => x.message)).toContain("disableAllHooks: true disables this repository's hooks; your own hooks keep running (in Atrium; Claude Code on its own switches off every hook)");
  });
});
