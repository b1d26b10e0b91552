// electron-builder `afterPack` hook (build/electron-builder.yml): puts a better-sqlite3 binding
// compiled for Electron into the staged app, and only there. electron-builder's own rebuild
// (`npmRebuild: true`) runs @electron/rebuild on the project folder, which replaces (or, when the
// build fails, deletes) node_modules/better-sqlite3/build/Release of the developer's checkout, after
// which the CLI, `atrium serve` and the tests cannot load SQLite. So `npmRebuild` is false and this
// hook compiles in a temp copy (scripts/electron-env.mjs) and overwrites the copy electron-builder
// staged in app.asar.unpacked (the `asarUnpack: **/*.node` rule keeps it outside the archive).
import path from 'node:path';
import { buildElectronSqlite, electronVersion } from './electron-env.mjs';

/** electron-builder's `Arch` enum (builder-util 26) by value: the context carries the number. */
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

/** Where better-sqlite3's binding sits inside a staged app's resources folder (asar-unpacked). */
export const STAGED_BINDING = path.join('app.asar.unpacked', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

/**
 * What this hook builds for one electron-builder `AfterPackContext` (app-builder-lib 26): the
 * Electron version and arch to compile for and the staged file to overwrite.
 * @param {{ appOutDir: string, arch: number, electronPlatformName: string, packager: { getResourcesDir(appOutDir: string): string, info?: { framework?: { version?: string } } } }} context
 * @returns {{ version: string, arch: string, outFile: string }}
 * @throws Error when the target platform is not this machine's (node-gyp compiles for the host
 *   only; package each platform on its own kind of machine) or the arch is `universal`.
 */
export function nativeBuildPlan(context) {
  const arch = ARCH_NAMES[context.arch] ?? String(context.arch);
  if (context.electronPlatformName !== process.platform) {
    throw new Error(`Cannot compile better-sqlite3 for ${context.electronPlatformName} on ${process.platform}: package each platform on a machine of that platform (npm run dist -- --${context.electronPlatformName === 'darwin' ? 'mac' : context.electronPlatformName === 'win32' ? 'win' : 'linux'}).`);
  }
  if (arch === 'universal') throw new Error('A universal macOS build is made from the x64 and arm64 builds; package those (npm run dist -- --mac --x64 --arm64).');
  const version = context.packager.info?.framework?.version ?? electronVersion();
  return { version, arch, outFile: path.join(context.packager.getResourcesDir(context.appOutDir), STAGED_BINDING) };
}

/** The hook electron-builder calls after staging the app and before making installers. */
export default async function afterPack(context) {
  const plan = nativeBuildPlan(context);
  buildElectronSqlite(plan);
}
