import { promises as fs } from 'node:fs';
import path from 'node:path';
import { AtriumError } from '../../../../shared/errors';
import { parseJsonText } from '../../formats/json';
import { keyMatches } from './enabled';

/** Which plugin to switch, and where. */
export interface EnableTarget {
  name: string;
  marketplace: string | null;
  /** `blade` for plugins found in `.blade/…` folders (their settings live in `.blade/`), else `claude`. */
  tool: 'claude' | 'blade';
}

/** The settings file a scope writes: `~/.claude/settings.json`, `.claude/settings.json`, `.claude/settings.local.json` (or `.blade/…`). */
export function settingsFileFor(scope: 'user' | 'project' | 'local', tool: 'claude' | 'blade', homeDir: string, workspaceDir: string): string {
  const base = scope === 'user' ? homeDir : workspaceDir;
  return path.join(base, `.${tool}`, scope === 'local' ? 'settings.local.json' : 'settings.json');
}

/**
 * Sets `enabledPlugins[<key>] = enabled` in one settings file (seed §12 lifecycle, scenario 7),
 * keeping every other key. The key is the one already naming the plugin in that file, else
 * `name@marketplace` (marketplace plugins) or `name`. Written atomically (temp file + rename),
 * two-space JSON. Creates the file and its folder when missing.
 * @returns the file written and the key
 * @throws AtriumError INVALID_PARAMS when the existing file is not a JSON object (it is left untouched)
 */
export async function writeEnabled(file: string, target: EnableTarget, enabled: boolean): Promise<{ file: string; key: string }> {
  let data: Record<string, unknown> = {};
  const text = await fs.readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
  if (text !== null && text.trim() !== '') {
    const parsed = parseJsonText(text.replace(/^\uFEFF/, ''));
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
      throw new AtriumError('INVALID_PARAMS', `Cannot update ${file}: it is not a JSON object${parsed.ok ? '' : ` (line ${parsed.line}: ${parsed.message})`}. Fix the file first; it was not changed.`);
    }
    data = parsed.value as Record<string, unknown>;
  }
  const current = data.enabledPlugins && typeof data.enabledPlugins === 'object' && !Array.isArray(data.enabledPlugins) ? (data.enabledPlugins as Record<string, unknown>) : {};
  const key = Object.keys(current).find((k) => keyMatches(k, target.name, target.marketplace)) ?? (target.marketplace ? `${target.name}@${target.marketplace}` : target.name);
  data.enabledPlugins = { ...current, [key]: enabled };
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(data, null, 2)}\n`, 'utf8');
  await fs.rename(tmp, file);
  return { file, key };
}
