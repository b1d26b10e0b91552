/**
 * The desktop app's update feed is GitHub releases, configured in build/electron-builder.yml
 * without a fixed owner or repository; `-c.publish.owner/repo` on the `npm run dist` command line
 * fills them in. Checked with electron-builder 26's own config loader and validator.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { repoRoot } from '../../support/corpus';

const require = createRequire(path.join(repoRoot, 'package.json'));
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, fromOptions: Record<string, unknown> | null): Promise<Record<string, unknown>>;
  validateConfiguration(config: Record<string, unknown>, debugLogger: { add(): void; isEnabled: boolean }): Promise<void>;
};
const configPath = path.join(repoRoot, 'build/electron-builder.yml');

describe('update feed in build/electron-builder.yml', () => {
  it('publishes to GitHub releases and names no repository of its own', () => {
    const config = YAML.parse(fs.readFileSync(configPath, 'utf8')) as Record<string, unknown>;
    expect(config.publish).toEqual({ provider: 'github', releaseType: 'release' });
  });

  it('keeps the AppImage, deb, dmg and NSIS targets electron-updater updates from', () => {
    const config = YAML.parse(fs.readFileSync(configPath, 'utf8')) as Record<string, { target: string[] }>;
    expect(config.linux.target).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    expect(config.mac.target).toEqual(expect.arrayContaining(['dmg', 'zip']));
    expect(config.win.target).toEqual(['nsis']);
  });

  it('takes owner and repository from the dist command line, and electron-builder accepts the result', async () => {
    const config = await getConfig(repoRoot, configPath, { publish: { owner: 'example-owner', repo: 'example-repo' } });
    expect(config.publish).toEqual({ provider: 'github', releaseType: 'release', owner: 'example-owner', repo: 'example-repo' });
    await expect(validateConfiguration(config, { add() {}, isEnabled: false })).resolves.toBeUndefined();
  });
});
