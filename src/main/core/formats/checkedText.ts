import { duplicateKeys } from './json/textChecks';
import { decodeUtf8 } from './unicode';

/** Most repeated-key warnings reported per file (the rest are counted in the last one). */
const MAX_DUPLICATE_WARNINGS = 20;

/** A problem with a file's text, with the 1-based line it is on (null: the whole file) and a fix for a person. Callers add the file's path. */
export interface TextWarning {
  line: number | null;
  message: string;
  fix: string;
}

/**
 * The text of a JSON, JSONC or TOML config file as the agents read it (Node `readFile(..., 'utf8')`:
 * invalid UTF-8 becomes U+FFFD; JSON `JSON.parse`: the last of repeated keys wins), with a warning
 * for invalid UTF-8 and, for JSON/JSONC, for every repeated key: the file then does not say what a
 * reader sees, since an editor shows the first value and the agent uses the last. Reading goes on
 * with the agent's reading. Never throws.
 */
export function checkedText(bytes: Uint8Array, syntax: 'json' | 'jsonc' | 'toml'): { text: string; warnings: TextWarning[] } {
  const { text, invalidLine } = decodeUtf8(bytes);
  const warnings: TextWarning[] = [];
  if (invalidLine !== null) {
    warnings.push({
      line: invalidLine,
      message: `is not valid UTF-8 (line ${invalidLine} is the first with an invalid byte sequence): agents read such bytes as "\uFFFD", and so does Atrium`,
      fix: 'Save the file as UTF-8 (or remove the stray bytes).',
    });
  }
  if (syntax === 'toml') return { text, warnings };
  const dups = duplicateKeys(text, { jsonc: syntax === 'jsonc', limit: MAX_DUPLICATE_WARNINGS + 1 });
  for (const d of dups.slice(0, MAX_DUPLICATE_WARNINGS)) {
    warnings.push({
      line: d.line,
      message: `repeats the key "${d.key}"${d.path ? ` in ${d.path}` : ''} (first at line ${d.firstLine}): agents use the last value (line ${d.line}), not the one an editor or reviewer sees first`,
      fix: `Keep one "${d.key}" and delete the other.`,
    });
  }
  if (dups.length > MAX_DUPLICATE_WARNINGS) warnings.push({ line: null, message: `repeats more keys than the ${MAX_DUPLICATE_WARNINGS} listed`, fix: 'Remove the repeated keys.' });
  return { text, warnings };
}
