/**
 * `npm run dist` compiles better-sqlite3 for Electron in the staged app only: electron-builder 26's
 * own rebuild (`npmRebuild: true`, app-builder-lib `installAppDependencies` → `installOrRebuild` on
 * the project folder) would replace or delete node_modules/better-sqlite3/build/Release of the
 * checkout. Electron's headers cannot be downloaded here, so the compile itself is not run; the
 * configuration, electron-builder's own loading of the hook and the hook's plan are.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { repoRoot } from '../../support/corpus';
import { tempDir } from '../../support/tempDir';

interface AfterPackHook {
  nativeBuildPlan(context: unknown): { version: string; arch: string; outFile: string };
  STAGED_BINDING: string;
  default: (context: unknown) => Promise<void>;
}
interface ElectronEnv {
  electronGypArgs(version: string, arch?: string): string[];
  electronVersion(): string;
}

const config = YAML.parse(fs.readFileSync(path.join(repoRoot, 'build/electron-builder.yml'), 'utf8')) as Record<string, unknown>;
const load = async <T>(rel: string): Promise<T> => (await import(pathToFileURL(path.join(repoRoot, rel)).href)) as T;

/** An electron-builder AfterPackContext for this machine (the fields the hook reads). */
function contextFor(appOutDir: string, platform: string = process.platform, arch = 1) {
  return {
    appOutDir,
    arch,
    electronPlatformName: platform,
    packager: { getResourcesDir: (dir: string) => path.join(dir, 'resources') },
  };
}

describe('npm run dist leaves the checkout\'s native modules alone', () => {
  it('electron-builder.yml turns electron-builder\'s in-place rebuild off and names the afterPack hook', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.afterPack).toBe('./scripts/dist-after-pack.mjs');
    expect(config.buildDependenciesFromSource).toBeUndefined();
    // the staged binding stays outside app.asar, where the hook overwrites it
    expect(config.asarUnpack).toContain('**/*.node');
  });

  it('electron-builder 26 resolves the afterPack entry to the hook\'s function (its own resolveFunction, from the project folder)', async () => {
    const require = createRequire(path.join(repoRoot, 'package.json'));
    const { resolveFunction } = require('app-builder-lib/out/util/resolve') as { resolveFunction: (type: string, executor: string, name: string, root: string) => Promise<unknown> };
    const cwd = process.cwd();
    process.chdir(repoRoot);
    try {
      const hook = await resolveFunction('module', config.afterPack as string, 'afterPack', repoRoot);
      const { default: expected } = await load<AfterPackHook>('scripts/dist-after-pack.mjs');
      // (electron-builder imports the file natively, vitest transforms its copy: compare by name and body)
      expect(typeof hook).toBe('function');
      expect((hook as () => void).name).toBe(expected.name);
      expect(String(hook)).toMatch(/const plan = nativeBuildPlan\(context\);\s*buildElectronSqlite\(plan\);/);
    } finally {
      process.chdir(cwd);
    }
  });

  it('the hook compiles for the Electron in node_modules and writes into the staged app\'s app.asar.unpacked, never into node_modules', async () => {
    const { nativeBuildPlan, STAGED_BINDING } = await load<AfterPackHook>('scripts/dist-after-pack.mjs');
    const { electronVersion } = await load<ElectronEnv>('scripts/electron-env.mjs');
    const appOutDir = path.join(tempDir('atrium-dist-'), 'linux-unpacked');
    const plan = nativeBuildPlan(contextFor(appOutDir));
    const electronPkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules/electron/package.json'), 'utf8')) as { version: string };
    expect(electronVersion()).toBe(electronPkg.version);
    expect(plan).toEqual({ version: electronPkg.version, arch: 'x64', outFile: path.join(appOutDir, 'resources', STAGED_BINDING) });
    expect(plan.outFile.startsWith(path.join(repoRoot, 'node_modules'))).toBe(false);
    expect(STAGED_BINDING).toBe(path.join('app.asar.unpacked', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'));
    // arm64 by electron-builder's Arch enum value, and the framework version electron-builder reports wins
    const arm = nativeBuildPlan({ ...contextFor(appOutDir, process.platform, 3), packager: { ...contextFor(appOutDir).packager, info: { framework: { version: '45.0.0' } } } });
    expect(arm).toMatchObject({ arch: 'arm64', version: '45.0.0' });
  });

  it('another platform or a universal build is refused with what to do instead (node-gyp compiles for the host only)', async () => {
    const { nativeBuildPlan } = await load<AfterPackHook>('scripts/dist-after-pack.mjs');
    const other = process.platform === 'win32' ? 'linux' : 'win32';
    expect(() => nativeBuildPlan(contextFor('/tmp/x', other))).toThrow(/package each platform on a machine of that platform/);
    expect(() => nativeBuildPlan(contextFor('/tmp/x', process.platform, 4))).toThrow(/universal/);
  });

  it('node-gyp is asked for Electron\'s runtime, version, arch and headers', async () => {
    const { electronGypArgs } = await load<ElectronEnv>('scripts/electron-env.mjs');
    expect(electronGypArgs('45.5.0', 'arm64')).toEqual(['rebuild', '--release', '--target=45.5.0', '--arch=arm64', '--runtime=electron', '--dist-url=https://electronjs.org/headers']);
  });
});
