import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseJsonText } from '../../formats/json';
import { isRecord } from '../../formats/text';
import type { ForeignTrustStore } from './types';

/**
 * Reads Gemini CLI's trust decisions from `<home>/.gemini/trustedFolders.json` (formats.md §3.3):
 * a JSON object (comments allowed) mapping absolute path → `TRUST_FOLDER` (trust that folder),
 * `TRUST_PARENT` (stored under the child; trusts its parent) or `DO_NOT_TRUST`. Other values are
 * skipped with a warning. `GEMINI_CLI_TRUSTED_FOLDERS_PATH` is not consulted. Never throws.
 */
export async function readGeminiTrust(homeDir: string): Promise<ForeignTrustStore> {
  const file = path.join(homeDir, '.gemini', 'trustedFolders.json');
  const result: ForeignTrustStore = { from: 'gemini', file, found: false, decisions: [], warnings: [] };
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return result;
  }
  result.found = true;
  const parsed = parseJsonText(text, { jsonc: true });
  if (!parsed.ok) {
    result.warnings.push({ path: file, line: parsed.line, message: `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}`, fix: parsed.fix });
    return result;
  }
  if (!isRecord(parsed.value)) {
    result.warnings.push({ path: file, line: 1, message: 'the file is not a JSON object of path → trust level', fix: 'Write { "/abs/path": "TRUST_FOLDER" }.' });
    return result;
  }
  for (const [folderPath, level] of Object.entries(parsed.value)) {
    if (!path.isAbsolute(folderPath)) {
      result.warnings.push({ path: file, line: null, message: `"${folderPath}" is not an absolute path; skipped`, fix: null });
      continue;
    }
    if (level === 'TRUST_FOLDER') result.decisions.push({ sourcePath: folderPath, folder: folderPath, state: 'trusted', sourceValue: level });
    else if (level === 'TRUST_PARENT') result.decisions.push({ sourcePath: folderPath, folder: path.dirname(folderPath), state: 'trusted', sourceValue: level });
    else if (level === 'DO_NOT_TRUST') result.decisions.push({ sourcePath: folderPath, folder: folderPath, state: 'untrusted', sourceValue: level });
    else {
      result.warnings.push({ path: file, line: null, message: `"${folderPath}" has trust level ${JSON.stringify(level)}; Gemini CLI accepts only TRUST_FOLDER, TRUST_PARENT, DO_NOT_TRUST. Skipped`, fix: null });
    }
  }
  return result;
}
