import type { TrustWarning } from '../../../../shared/contract';
import { findInvisible, scanInvisible } from '../../formats/unicode';

/**
 * Warns about invisible characters that can make text read differently to a model than on screen
 * (bidirectional overrides, zero-width characters, Unicode tag characters). Characters that hide
 * or reorder text (`scanInvisible`'s smuggling class: TAG text, selector payloads, bidi controls,
 * terminal controls) get a message that says so first and spells out hidden TAG text, since the
 * review is where the user decides to trust; harmless ones (a zero-width joiner) only count. A BOM
 * at the very start is reported separately by callers. Returns at most one warning per file.
 */
export function hiddenCharacterWarning(text: string, path: string): TrustWarning | null {
  const found = findInvisible(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  const smuggling = scanInvisible(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).filter((f) => f.class === 'smuggling');
  if (smuggling.length > 0) {
    const first = smuggling[0];
    const spelled = smuggling.map((f) => f.hiddenText).filter((t): t is string => !!t);
    return {
      path,
      line: first.line,
      message: `hides text from you: ${first.what} (${first.codePoint}) on line ${first.line}${smuggling.length > 1 ? ` and ${smuggling.length - 1} more place${smuggling.length === 2 ? '' : 's'}` : ''}${spelled.length ? `; the TAG characters spell, invisibly: ${JSON.stringify(spelled.join(' ').slice(0, 200))}` : ''}. An agent that reads this file gets text you do not see`,
      fix: 'Do not trust the folder until the hidden characters are removed; Atrium shows them as ⟨U+XXXX⟩ in the Rules tab.',
    };
  }
  if (!found) return null;
  const { count, line, codePoint } = found;
  return {
    path,
    line,
    message: `contains ${count} invisible character${count === 1 ? '' : 's'} (first: ${codePoint} on line ${line}); the text an agent reads may differ from what you see`,
    fix: 'Remove the invisible characters, or inspect the file in an editor that shows them.',
  };
}
