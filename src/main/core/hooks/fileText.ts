import type { TrustWarning } from '../../../shared/contract';
import { duplicateKeys } from '../formats/json/textChecks';
import { decodeUtf8 } from '../formats/unicode';

/** Most repeated-key warnings reported per file (the rest are counted in the last one). */
const MAX_DUPLICATE_WARNINGS = 20;

/**
 * The text of a hook or MCP file as the agents read it (Node `readFile(..., 'utf8')`: invalid UTF-8
 * becomes U+FFFD; JSON `JSON.parse`: the last of repeated keys wins), with a warning naming the file
 * and line for invalid UTF-8 and, for JSON, for every repeated key: the file then does not say what
 * a reader sees, since an editor shows the first value and the agent uses the last. Loading goes on
 * with the agent's reading. Never throws.
 */
export function checkedText(bytes: Uint8Array, shownPath: string, syntax: 'json' | 'jsonc' | 'toml'): { text: string; warnings: TrustWarning[] } {
  const { text, invalidLine } = decodeUtf8(bytes);
  const warnings: TrustWarning[] = [];
  if (invalidLine !== null) {
    warnings.push({
      path: shownPath,
      line: invalidLine,
      message: `is not valid UTF-8 (line ${invalidLine} is the first with an invalid byte sequence): agents read such bytes as "\uFFFD", and so does Atrium`,
      fix: 'Save the file as UTF-8 (or remove the stray bytes).',
    });
  }
  if (syntax === 'toml') return { text, warnings };
  const dups = duplicateKeys(text, { jsonc: syntax === 'jsonc', limit: MAX_DUPLICATE_WARNINGS + 1 });
  for (const d of dups.slice(0, MAX_DUPLICATE_WARNINGS)) {
    warnings.push({
      path: shownPath,
      line: d.line,
      message: `repeats the key "${d.key}"${d.path ? ` in ${d.path}` : ''} (first at line ${d.firstLine}): agents use the last value (line ${d.line}), not the one an editor or reviewer sees first`,
      fix: `Keep one "${d.key}" and delete the other.`,
    });
  }
  if (dups.length > MAX_DUPLICATE_WARNINGS) warnings.push({ path: shownPath, line: null, message: `repeats more keys than the ${MAX_DUPLICATE_WARNINGS} listed`, fix: 'Remove the repeated keys.' });
  return { text, warnings };
}
