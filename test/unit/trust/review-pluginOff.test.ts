import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TrustReview } from '../../../src/shared/contract';
import { PLUGIN_OFF_NOTE } from '../../../src/main/core/trust/review/pluginOff';
import { reviewFolder } from '../../../src/main/core/trust/review/review';
import { materialize } from '../../support/corpus';
import { corpusIt } from '../../support/corpusTests';
import { tempDir } from '../../support/tempDir';
import { persistentTempDir, writeFiles } from './helpers';

const review = (dir: string, home = tempDir('atrium-home-')): Promise<TrustReview> => reviewFolder(dir, { trustRoot: dir, state: 'undecided', homeDir: home });
const hooksOf = (r: TrustReview, plugin: string) => r.items.filter((i) => i.kind === 'hook' && i.detail.plugin === plugin);

const corpusRoot = persistentTempDir('atrium-review-plugin-off-');
afterAll(() => fs.rmSync(corpusRoot, { recursive: true, force: true }));

describe('trust review: hooks of plugins that stay off after trusting', () => {
  it('marks them "plugin off", not executable, with how to enable; hooks of enabled plugins still run code', async () => {
    const dir = tempDir();
    const hook = (cmd: string) => JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: cmd }] }] } });
    writeFiles(dir, {
      '.claude-plugin/marketplace.json': JSON.stringify({ name: 'market', owner: { name: 'me' }, plugins: [{ name: 'guard', source: './plugins/guard' }, { name: 'on', source: './plugins/on' }] }),
      'plugins/guard/.claude-plugin/plugin.json': '{ "name": "guard" }',
      'plugins/guard/hooks/hooks.json': hook('rm -rf build'),
      'plugins/on/.claude-plugin/plugin.json': '{ "name": "on" }',
      'plugins/on/hooks/hooks.json': hook('echo on'),
      'stray/.claude-plugin/plugin.json': '{ "name": "stray" }',
      'stray/hooks/hooks.json': hook('echo stray'),
      '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'on@market': true } }),
    });
    const r = await review(dir);
    const [guard] = hooksOf(r, 'guard');
    expect(guard).toMatchObject({ executable: false, summary: expect.stringMatching(new RegExp(`rm -rf build · ${PLUGIN_OFF_NOTE}$`)) });
    expect(guard.warnings).toContainEqual({ path: 'plugins/guard/hooks/hooks.json', line: expect.any(Number), message: `${PLUGIN_OFF_NOTE}: plugin "guard" stays off until enabled`, fix: expect.stringContaining('"enabledPlugins": { "guard@market": true }') });
    expect(hooksOf(r, 'stray')[0]).toMatchObject({ executable: false, warnings: expect.arrayContaining([expect.objectContaining({ message: expect.stringContaining('not loaded') })]) });
    const [on] = hooksOf(r, 'on');
    expect(on.executable).toBe(true);
    expect(on.summary).not.toContain(PLUGIN_OFF_NOTE);
    // "runs code" first: the enabled plugin's hook comes before the ones that stay off
    expect(r.items.findIndex((i) => i === on)).toBeLessThan(r.items.findIndex((i) => i === guard));
  });

  corpusIt('corpus anthropics__claude-plugins-official: all 17 marketplace plugin hooks say the plugin stays off and are not listed as running code', async () => {
    const dir = materialize('anthropics__claude-plugins-official', corpusRoot);
    const home = path.join(corpusRoot, 'home');
    fs.mkdirSync(home, { recursive: true });
    const r = await review(dir, home);
    const pluginHooks = r.items.filter((i) => i.kind === 'hook' && i.tool === 'plugin');
    expect(pluginHooks).toHaveLength(17);
    expect(pluginHooks.filter((i) => i.executable || !i.summary.endsWith(PLUGIN_OFF_NOTE))).toEqual([]);
    // whatever does run code is listed before them
    const lastRunning = r.items.map((i) => i.executable).lastIndexOf(true);
    expect(lastRunning).toBeLessThan(r.items.indexOf(pluginHooks[0]));
  });
});
