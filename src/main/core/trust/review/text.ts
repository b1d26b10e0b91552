import type { TrustWarning } from '../../../../shared/contract';
import { findInvisible } from '../../formats/unicode';

/**
 * Warns about invisible characters that can make text read differently to a model than on screen
 * (bidirectional overrides, zero-width characters, Unicode tag characters). A BOM at the very
 * start is reported separately by callers. Returns at most one warning per file.
 */
export function hiddenCharacterWarning(text: string, path: string): TrustWarning | null {
  const found = findInvisible(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  if (!found) return null;
  const { count, line, codePoint } = found;
  return {
    path,
    line,
    message: `contains ${count} invisible character${count === 1 ? '' : 's'} (first: ${codePoint} on line ${line}); the text an agent reads may differ from what you see`,
    fix: 'Remove the invisible characters, or inspect the file in an editor that shows them.',
  };
}
