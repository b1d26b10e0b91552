import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseJsonText } from '../../formats/json';
import { isRecord } from '../../formats/text';
import type { ForeignTrustStore } from './types';

/**
 * Reads Claude Code's trust decisions from `<home>/.claude.json` → `projects["<path>"]
 * .hasTrustDialogAccepted` (formats.md §2.4, §2.6). Only `true` is a decision (`false` means the
 * dialog was never accepted, not "do not trust"). Nothing else of that file (it also holds
 * sign-in state) is read into the result. Never throws.
 */
export async function readClaudeTrust(homeDir: string): Promise<ForeignTrustStore> {
  const file = path.join(homeDir, '.claude.json');
  const result: ForeignTrustStore = { from: 'claude', file, found: false, decisions: [], warnings: [] };
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return result;
  }
  result.found = true;
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    result.warnings.push({ path: file, line: parsed.line, message: `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}`, fix: 'Let Claude Code rewrite the file, or fix the JSON.' });
    return result;
  }
  const projects = isRecord(parsed.value) ? parsed.value.projects : undefined;
  if (!isRecord(projects)) return result;
  for (const [projectPath, state] of Object.entries(projects)) {
    if (!isRecord(state) || state.hasTrustDialogAccepted !== true) continue;
    if (!path.isAbsolute(projectPath)) {
      result.warnings.push({ path: file, line: parsed.lineOf(state), message: `project key "${projectPath}" is not an absolute path; skipped`, fix: null });
      continue;
    }
    result.decisions.push({ sourcePath: projectPath, folder: projectPath, state: 'trusted', sourceValue: 'hasTrustDialogAccepted: true' });
  }
  return result;
}
