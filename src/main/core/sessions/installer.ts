import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AtriumError } from '../../../shared/errors';
import type { AgentPreset } from './presets';
import { ByteRing } from './ringBuffer';

/** File written into an install folder once the install is complete (its presence = installed). */
export const INSTALL_MARKER = '.atrium-agent.json';

/** Contents of {@link INSTALL_MARKER}. `entry` is the absolute path of the package's bin file. */
export interface InstallMarker {
  id: string;
  package: string;
  version: string;
  entry: string;
  installedAt: string;
}

/** One progress report of a running install. */
export interface InstallProgressReport {
  phase: 'started' | 'progress' | 'done' | 'failed';
  message: string;
  fetched: number;
  elapsedMs: number;
}

/** The folder a preset version installs into: `<dataDir>/agents/<id>@<version>`. */
export function installDir(dataDir: string, preset: Pick<AgentPreset, 'id' | 'version'>): string {
  return path.join(dataDir, 'agents', `${preset.id}@${preset.version}`);
}

/** Reads the install marker of a preset, or null when it is not (completely) installed. Never throws. */
export function readInstallMarker(dataDir: string, preset: AgentPreset): InstallMarker | null {
  try {
    const marker = JSON.parse(fs.readFileSync(path.join(installDir(dataDir, preset), INSTALL_MARKER), 'utf8')) as InstallMarker;
    if (marker.version !== preset.version || !fs.existsSync(marker.entry)) return null;
    return marker;
  } catch {
    return null;
  }
}

/**
 * Installs a preset's npm package at its pinned version into `<dataDir>/agents/<id>@<version>`:
 * `npm install` runs in a fresh temporary sibling folder (so a half-done install never looks
 * installed), the package's `bin` entry is recorded in a marker, then the folder is renamed into
 * place. Install scripts run only for the packages in `preset.allowScripts` (npm 11 `allowScripts`).
 * Progress lines are reported through `onProgress` (npm's http log: one line per fetched package).
 *
 * @param npmCommand the npm executable (default `$ATRIUM_NPM` or `npm` on PATH)
 * @throws AtriumError AGENT_INSTALL_FAILED with npm's last output lines
 */
export async function installPreset(
  dataDir: string,
  preset: AgentPreset,
  onProgress: (report: InstallProgressReport) => void,
  npmCommand = process.env.ATRIUM_NPM || 'npm',
): Promise<InstallMarker> {
  const started = Date.now();
  const existing = readInstallMarker(dataDir, preset);
  if (existing) return existing;
  const agentsDir = path.join(dataDir, 'agents');
  fs.mkdirSync(agentsDir, { recursive: true, mode: 0o700 });
  const partial = path.join(agentsDir, `.${preset.id}@${preset.version}.partial-${crypto.randomBytes(4).toString('hex')}`);
  fs.mkdirSync(partial);
  let fetched = 0;
  const report = (phase: InstallProgressReport['phase'], message: string) => onProgress({ phase, message, fetched, elapsedMs: Date.now() - started });
  const spec = preset.installSpec ?? `${preset.package}@${preset.version}`;
  report('started', `Installing ${preset.package}@${preset.version} into ${installDir(dataDir, preset)}`);
  try {
    fs.writeFileSync(
      path.join(partial, 'package.json'),
      JSON.stringify({ name: `atrium-agent-${preset.id}`, private: true, allowScripts: Object.fromEntries(preset.allowScripts.map((p) => [p, true])) }, null, 2),
    );
    const tail = new ByteRing(8 * 1024);
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(npmCommand, ['install', '--no-audit', '--no-fund', '--omit=dev', '--loglevel=http', '--save-exact', spec], {
        cwd: partial,
        env: { ...process.env, npm_config_update_notifier: 'false' },
        stdio: ['ignore', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
      });
      let lastReport = 0;
      const onLine = (line: string) => {
        tail.push(`${line}\n`);
        if (/\bhttp fetch GET 200\b/.test(line)) fetched++;
        const now = Date.now();
        if (now - lastReport >= 100) {
          lastReport = now;
          report('progress', line.trim());
        }
      };
      for (const stream of [child.stdout, child.stderr]) {
        let rest = '';
        stream.on('data', (d: Buffer) => {
          const lines = (rest + d.toString('utf8')).split(/\r?\n/);
          rest = lines.pop() ?? '';
          lines.filter(Boolean).forEach(onLine);
        });
        stream.on('end', () => rest && onLine(rest));
      }
      child.on('error', reject);
      child.on('close', (c) => resolve(c));
    });
    if (code !== 0) throw new Error(`npm exited with code ${code}.\n${tail.text().trim().split('\n').slice(-12).join('\n')}`);
    const pkgDir = path.join(partial, 'node_modules', ...preset.package.split('/'));
    const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version?: string; bin?: string | Record<string, string> };
    if (pkg.version !== preset.version) throw new Error(`npm installed version ${pkg.version}, but ${preset.version} is pinned.`);
    const binRel = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[preset.bin];
    if (!binRel) throw new Error(`${preset.package} has no bin entry "${preset.bin}".`);
    const final = installDir(dataDir, preset);
    const entryRel = path.relative(partial, path.join(pkgDir, binRel));
    const marker: InstallMarker = { id: preset.id, package: preset.package, version: preset.version, entry: path.join(final, entryRel), installedAt: new Date().toISOString() };
    fs.writeFileSync(path.join(partial, INSTALL_MARKER), JSON.stringify(marker, null, 2));
    fs.rmSync(final, { recursive: true, force: true });
    fs.renameSync(partial, final);
    report('done', `Installed ${preset.package}@${preset.version} (${fetched} packages fetched).`);
    return marker;
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    const message = (error as Error).message;
    report('failed', message);
    throw new AtriumError(
      'AGENT_INSTALL_FAILED',
      `Installing ${preset.package}@${preset.version} failed: ${message}${/ENOENT/.test(message) ? ' Is npm installed and on PATH?' : ''}`,
    );
  }
}
