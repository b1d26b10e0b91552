import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/main/core/engine';
import { readSkillBody } from '../../../src/main/core/extensions/skills/body';
import { findCommand } from '../../../src/main/core/extensions/invocations';
import { engineFor, ids, makeDir, md, switchGate } from './helpers';

let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

/** A project with native resources and a project plugin `plugin-x` (seed §1.7). */
function project(x: string) {
  const p = `.blade/plugins/plugin-${x}`;
  return makeDir({
    '.blade/agents/native.md': md({ name: `native-${x}`, description: `agent ${x}` }, 'x'),
    [`.blade/commands/native-${x}.md`]: `native ${x}`,
    [`.blade/skills/native-${x}/SKILL.md`]: md({ name: `native-${x}`, description: `skill ${x}` }, `body ${x}`),
    [`.blade/output-styles/native-${x}.md`]: `Style ${x}.`,
    [`${p}/.blade-plugin/plugin.json`]: JSON.stringify({ name: `plugin-${x}`, version: '1.0.0', description: 'd' }),
    [`${p}/commands/review.md`]: `review from ${x}`,
    [`${p}/skills/helper/SKILL.md`]: md({ name: 'helper', description: `helper ${x}` }, 'x'),
    [`${p}/output-styles/review.md`]: `Plugin style ${x}.`,
    // same plugin name in both projects: "kit"
    '.blade/plugins/kit/.blade-plugin/plugin.json': JSON.stringify({ name: 'kit' }),
    '.blade/plugins/kit/commands/go.md': `kit of ${x}`,
  });
}

describe('bundle and snapshot (seed scenarios 6, 7, 11–13)', () => {
  it('6: two workspaces with identically named plugins never see each other’s resources', async () => {
    engine = engineFor(makeDir());
    const a = project('a');
    const b = project('b');
    const sa = engine.resources.snapshot(await engine.resources.resolve(a)).extensions;
    const sb = engine.resources.snapshot(await engine.resources.resolve(b)).extensions;
    expect(ids(sa.commands).sort()).toEqual(['native-a', 'plugin:kit:go', 'plugin:plugin-a:review']);
    expect(ids(sa.skills).sort()).toEqual(['native-a', 'plugin:plugin-a:helper']);
    expect(ids(sa.styles).sort()).toEqual(['plugin:plugin-a:review', 'project:native-a']);
    expect(ids(sb.commands)).not.toContain('plugin:plugin-a:review');
    expect(() => findCommand(sb, 'plugin:plugin-a:review')).toThrow(/No command/);
    expect(findCommand(sa, 'plugin:kit:go').template.trim()).toBe('kit of a');
    expect(findCommand(sb, 'plugin:kit:go').template.trim()).toBe('kit of b');
  });

  it('7: disabled via .blade/settings.local.json → absent; enabled (scope local) → new snapshot has it, the old one still lacks it, file says true', async () => {
    engine = engineFor(makeDir());
    const a = project('a');
    fs.writeFileSync(path.join(a, '.blade/settings.local.json'), JSON.stringify({ enabledPlugins: { 'plugin-a': false } }));
    const before = engine.resources.snapshot(await engine.resources.resolve(a)).extensions;
    expect(ids(before.commands)).not.toContain('plugin:plugin-a:review');
    expect(ids(before.skills)).not.toContain('plugin:plugin-a:helper');
    expect(ids(before.styles)).not.toContain('plugin:plugin-a:review');
    expect(before.plugins.find((p) => p.name === 'plugin-a')).toMatchObject({ status: 'disabled', enabledBy: { scope: 'local' } });

    await engine.extensions.setPluginEnabled(a, 'plugin-a', 'local', true);
    const after = engine.resources.snapshot(await engine.resources.resolve(a)).extensions;
    expect(ids(after.commands)).toContain('plugin:plugin-a:review');
    expect(ids(after.skills)).toContain('plugin:plugin-a:helper');
    expect(ids(after.styles)).toContain('plugin:plugin-a:review');
    expect(ids(before.commands)).not.toContain('plugin:plugin-a:review');
    expect(JSON.parse(fs.readFileSync(path.join(a, '.blade/settings.local.json'), 'utf8'))).toEqual({ enabledPlugins: { 'plugin-a': true } });

    // and the other way round: a snapshot keeps a plugin that is disabled afterwards
    await engine.extensions.setPluginEnabled(a, 'plugin-a', 'local', false);
    expect(ids(after.commands)).toContain('plugin:plugin-a:review');
    expect(ids((await engine.extensions.list(a)).commands)).not.toContain('plugin:plugin-a:review');
  });

  it('11: ~/.blade beats ~/.claude for user:compact; project:review:strict named by frontmatter; plugin review-kit → plugin:review-kit:guided', async () => {
    const home = makeDir({ '.claude/output-styles/compact.md': 'Claude compact.', '.blade/output-styles/compact.md': 'Blade compact.' });
    const dir = makeDir({
      '.blade/output-styles/review/strict.md': md({ name: 'Strict' }, 'Be strict.'),
      '.blade/plugins/review-kit/.blade-plugin/plugin.json': JSON.stringify({ name: 'review-kit' }),
      '.blade/plugins/review-kit/output-styles/guided.md': 'Guide.',
    });
    engine = engineFor(home);
    const s = engine.resources.snapshot(await engine.resources.resolve(dir)).extensions;
    expect(s.styles.filter((x) => x.status === 'active').map((x) => [x.id, x.name, x.prompt])).toEqual([
      ['plugin:review-kit:guided', 'guided', 'Guide.'],
      ['project:review:strict', 'Strict', 'Be strict.'],
      ['user:compact', 'compact', 'Blade compact.'],
    ]);
    const listed = await engine.extensions.list(dir, 'styles');
    expect(listed.styles.every((x) => !('prompt' in x))).toBe(true); // list never exposes prompts (seed §3.3)
    expect(listed.styles.find((x) => x.id === 'user:compact')).toMatchObject({ description: 'Blade compact.', path: '~/.blade/output-styles/compact.md' });
  });

  it('12: a symlinked or too-deep style root disables only that root; a U+200B file and a 16 KiB+1 prompt are skipped', async () => {
    const other = makeDir({ 'x.md': 'Linked.' });
    const home = makeDir({ '.claude/output-styles/fine.md': 'Fine.' });
    fs.mkdirSync(path.join(home, '.blade'));
    fs.symlinkSync(other, path.join(home, '.blade/output-styles'));
    const dir = makeDir({
      '.claude/output-styles/ok.md': 'Ok.',
      '.claude/output-styles/zws.md': 'Hidden\u200Bchar.',
      '.claude/output-styles/big.md': 'x'.repeat(16 * 1024 + 1),
      '.blade/output-styles/a/b/c/d/deep.md': 'Too deep.',
    });
    engine = engineFor(home);
    const s = (await engine.resources.resolve(dir)).value('extensions');
    expect(ids(s.styles).sort()).toEqual(['project:ok', 'user:fine']);
    expect(s.styles.filter((x) => x.status === 'invalid').map((x) => [x.id, x.warnings[0].message])).toEqual([
      ['project:big', 'the prompt is larger than 16384 bytes'],
      ['project:zws', 'contains a hidden control character'],
    ]);
    const roots = s.warnings.filter((w) => w.message.includes('no style from this folder is loaded'));
    expect(roots.map((w) => w.path).sort()).toEqual(['.blade/output-styles', '~/.blade/output-styles']);
    expect(roots.find((w) => w.path === '~/.blade/output-styles')!.message).toContain('symbolic link');
    expect(roots.find((w) => w.path === '.blade/output-styles')!.message).toContain('deeper than 4 levels');
  });

  it('13: a style edited after a snapshot keeps its old prompt in the snapshot; digest = SHA-256 of the trimmed body', async () => {
    const dir = makeDir({ '.claude/output-styles/tone.md': md({ description: 'Tone' }, '\n  Version one.  \n') });
    engine = engineFor(makeDir());
    const snap = engine.resources.snapshot(await engine.resources.resolve(dir));
    const v1 = snap.extensions.styles[0];
    expect(v1.sha256).toBe(crypto.createHash('sha256').update('Version one.').digest('hex'));
    fs.writeFileSync(path.join(dir, '.claude/output-styles/tone.md'), md({ description: 'Tone' }, 'Version two.'));
    await engine.resources.refresh(dir);
    const fresh = (await engine.resources.resolve(dir)).value('extensions').styles[0];
    expect(fresh.prompt).toBe('Version two.');
    expect(snap.extensions.styles[0].prompt).toBe('Version one.');
    expect(engine.resources.snapshot(snap).extensions.styles[0].prompt).toBe('Version one.'); // a child snapshot of the snapshot too
  });

  it('skill bodies: metadata listed, body read on demand; a read that no longer matches the recorded sha256 fails closed', async () => {
    const dir = makeDir({ '.claude/skills/s/SKILL.md': md({ name: 's', description: 'd' }, 'Body one.') });
    engine = engineFor(makeDir());
    const snap = engine.resources.snapshot(await engine.resources.resolve(dir));
    const skill = snap.extensions.skills[0];
    expect(JSON.stringify(await engine.extensions.list(dir))).not.toContain('Body one.');
    expect(await engine.extensions.skillBody(dir, 's')).toMatchObject({ body: 'Body one.\n', sha256: skill.sha256 });
    fs.writeFileSync(path.join(dir, '.claude/skills/s/SKILL.md'), md({ name: 's', description: 'd' }, 'Body two (tampered).'));
    await expect(readSkillBody(skill)).rejects.toMatchObject({ code: 'EXTENSION_CHANGED' });
    await expect(engine.extensions.skillBody(dir, 's')).rejects.toMatchObject({ code: 'EXTENSION_CHANGED' }); // the live bundle has not rebuilt yet
    await engine.resources.refresh(dir);
    expect((await engine.extensions.skillBody(dir, 's')).body).toBe('Body two (tampered).\n');
    await expect(readSkillBody(skill)).rejects.toMatchObject({ code: 'EXTENSION_CHANGED' }); // the old snapshot never serves the new body
    fs.rmSync(path.join(dir, '.claude/skills/s'), { recursive: true });
    await expect(readSkillBody(skill)).rejects.toMatchObject({ code: 'EXTENSION_CHANGED' });
  });

  it('trust changes rebuild the bundle: revoking hides project extensions from new snapshots, old ones keep theirs', async () => {
    const gate = switchGate(true);
    const dir = makeDir({ '.claude/commands/p.md': 'p' });
    engine = engineFor(makeDir(), gate);
    const trusted = engine.resources.snapshot(await engine.resources.resolve(dir)).extensions;
    gate.set(false);
    const restricted = engine.resources.snapshot(await engine.resources.resolve(dir)).extensions;
    expect(ids(trusted.commands)).toEqual(['p']);
    expect(ids(restricted.commands)).toEqual([]);
    expect(restricted.restrictedCounts.commands).toBe(1);
  });
});

describe('live bundle', () => {
  it('a new command file on disk rebuilds the bundle (watcher) and pushes extensionsChanged for the workspace', async () => {
    const { createEngine } = await import('../../../src/main/core/engine');
    const { fixedGate } = await import('../../../src/main/core/trust/gate');
    const { tempDir } = await import('../../support/tempDir');
    const dir = makeDir({ '.claude/commands/one.md': 'one' });
    engine = createEngine({ dataDir: tempDir('atrium-data-'), homeDir: makeDir(), trustGate: fixedGate(true), watchHooks: false });
    const { workspace } = engine.workspaces.add(dir);
    expect(ids((await engine.extensions.list(dir)).commands)).toEqual(['one']);
    await engine.resources.watchReady(dir);
    const changed = new Promise<unknown>((resolve) => engine!.bus.subscribe((event, payload) => event === 'extensionsChanged' && resolve(payload)));
    fs.writeFileSync(path.join(dir, '.claude/commands/two.md'), 'two');
    expect(await changed).toEqual({ workspaceId: workspace.id });
    expect(ids((await engine.extensions.list(dir)).commands)).toEqual(['one', 'two']);
  });
});
