import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isRecord } from '../../formats/text';
import { parseTomlText } from '../../formats/toml';
import type { ForeignTrustStore } from './types';

/**
 * Reads Codex's trust decisions from `<home>/.codex/config.toml` → `[projects."<abs path>"]
 * trust_level = "trusted" | "untrusted"` (formats.md §1.3). `$CODEX_HOME` is not consulted: the
 * engine's home directory is the only root (tests isolate it). Never throws.
 */
export async function readCodexTrust(homeDir: string): Promise<ForeignTrustStore> {
  const file = path.join(homeDir, '.codex', 'config.toml');
  const result: ForeignTrustStore = { from: 'codex', file, found: false, decisions: [], warnings: [] };
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return result;
  }
  result.found = true;
  const parsed = parseTomlText(text);
  if (!parsed.ok) {
    const line = parsed.line;
    result.warnings.push({ path: file, line, message: `invalid TOML${line ? ` at line ${line}` : ''}: ${parsed.reason}`, fix: 'Fix the TOML syntax (Codex itself refuses to start with it).' });
    return result;
  }
  const root = parsed.value;
  if (!isRecord(root.projects)) return result;
  for (const [projectPath, entry] of Object.entries(root.projects)) {
    if (!isRecord(entry)) continue;
    const level = entry.trust_level;
    if (level !== 'trusted' && level !== 'untrusted') {
      if (level !== undefined) result.warnings.push({ path: file, line: null, message: `[projects."${projectPath}"] has trust_level = ${JSON.stringify(level)}, which is neither "trusted" nor "untrusted"; skipped`, fix: null });
      continue;
    }
    if (!path.isAbsolute(projectPath)) {
      result.warnings.push({ path: file, line: null, message: `[projects."${projectPath}"] is not an absolute path; skipped`, fix: null });
      continue;
    }
    result.decisions.push({ sourcePath: projectPath, folder: projectPath, state: level, sourceValue: `trust_level = "${level}"` });
  }
  return result;
}
