/**
 * The packaged app's Electron fuses and its `atrium://` registration, as electron-builder 26
 * (app-builder-lib) reads build/electron-builder.yml: its own schema validation, its own mapping of
 * `electronFuses` to @electron/fuses options. The packaging itself needs an Electron download and
 * is not run here.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { DEEP_LINK_SCHEME } from '../../../src/main/deepLinkRoute';
import { repoRoot } from '../../support/corpus';

const config = YAML.parse(fs.readFileSync(path.join(repoRoot, 'build/electron-builder.yml'), 'utf8')) as Record<string, unknown>;
const fuses = config.electronFuses as Record<string, boolean>;
const require = createRequire(path.join(repoRoot, 'package.json'));

const validate = async (candidate: unknown) => {
  const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
    validateConfiguration(config: unknown, logger: { isEnabled: boolean; add(): void }): Promise<void>;
  };
  await validateConfiguration(candidate, { isEnabled: false, add() {} });
};

describe('electron-builder.yml: fuses and the atrium:// scheme', () => {
  it('sets every hardening fuse', () => {
    expect(fuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('turns runAsNode off, and no source sets ELECTRON_RUN_AS_NODE (with the fuse off it would open a second Atrium)', () => {
    expect(fuses.runAsNode).toBe(false);
    const sources = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : /\.(ts|tsx|js|mjs|cjs)$/.test(e.name) ? [path.join(dir, e.name)] : []));
    const files = [...sources(path.join(repoRoot, 'src')), ...sources(path.join(repoRoot, 'bin')), ...sources(path.join(repoRoot, 'scripts'))];
    expect(files.length).toBeGreaterThan(100);
    // `ELECTRON_RUN_AS_NODE: '1'`, `env.ELECTRON_RUN_AS_NODE = '1'`, `env['ELECTRON_RUN_AS_NODE'] = …` (a mention in a comment is no setter)
    const sets = /ELECTRON_RUN_AS_NODE['"]?\]?\s*(:|=(?!=))/;
    expect(sets.test("{ ...env, ELECTRON_RUN_AS_NODE: '1' }") && sets.test("env['ELECTRON_RUN_AS_NODE'] = '1'") && !sets.test('the fuse ignores ELECTRON_RUN_AS_NODE.')).toBe(true);
    const setters = files.filter((file) => sets.test(fs.readFileSync(file, 'utf8'))).map((file) => path.relative(repoRoot, file));
    expect(setters).toEqual([]);
  });

  it('passes electron-builder\'s own configuration schema, which refuses an unknown fuse name', async () => {
    await expect(validate(config)).resolves.toBeUndefined();
    await expect(validate({ ...config, electronFuses: { ...fuses, enableNodeOption: false } })).rejects.toThrow(/configuration\.electronFuses/);
  });

  it('electron-builder turns each entry into the matching @electron/fuses option', async () => {
    const { PlatformPackager } = require('app-builder-lib') as {
      PlatformPackager: { prototype: { generateFuseConfig(this: unknown, f: unknown): Promise<Record<string, unknown>> } };
    };
    const { FuseV1Options, FuseVersion } = require('@electron/fuses') as { FuseV1Options: Record<string, number>; FuseVersion: Record<string, number> };
    const generated = await PlatformPackager.prototype.generateFuseConfig.call({}, fuses);
    expect(generated).toEqual({
      version: FuseVersion.V1,
      resetAdHocDarwinSignature: undefined,
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
      [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
    });
  });

  it('declares the atrium:// scheme the app routes, so installers register it (Linux: MimeType x-scheme-handler/atrium)', () => {
    expect(config.protocols).toEqual([{ name: 'Atrium link', schemes: [DEEP_LINK_SCHEME] }]);
    // the hand-written desktop entry says the same
    expect(fs.readFileSync(path.join(repoRoot, 'build/atrium.desktop'), 'utf8')).toMatch(/^MimeType=x-scheme-handler\/atrium;$/m);
  });
});
