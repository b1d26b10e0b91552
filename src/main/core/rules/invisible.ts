import { scanInvisible, type InvisibleClass, type InvisibleFinding } from '../formats/unicode';
import type { RuleSeverity, RuleWarning } from './types';
import { warning } from './warnings';

/** Locations listed in one finding's message before "… N in all". */
const MAX_LISTED = 5;

const SEVERITY: Record<InvisibleClass, RuleSeverity> = { emoji: 'info', harmless: 'warning', smuggling: 'error' };
const CODE: Record<InvisibleClass, string> = { emoji: 'invisible-emoji', harmless: 'invisible-characters', smuggling: 'hidden-characters' };

/**
 * The findings about invisible characters in a rule file's text (see `scanInvisible`): at most one
 * per class, each naming the first locations (line, column, code point) and the count.
 * - `hidden-characters` (error; TAG text, selector payloads, bidi overrides/isolates, controls):
 *   the file still loads, but every such character is sent and shown as `⟨U+XXXX⟩`, never raw,
 *   and agents that read the file themselves get it as it is, so the finding says so;
 * - `invisible-characters` (warning; ZWSP, ZWJ, WJ, LRM/RLM, a mid-file BOM…): loaded unchanged;
 * - `invisible-emoji` (info): joiners and tag sequences inside emoji, loaded unchanged.
 * `lineOffset` is added to every line (text that starts below line 1 of its file). Pure.
 */
export function invisibleWarnings(text: string, lineOffset = 0): RuleWarning[] {
  const byClass = new Map<InvisibleClass, InvisibleFinding[]>();
  for (const f of scanInvisible(text)) byClass.set(f.class, [...(byClass.get(f.class) ?? []), f]);
  const out: RuleWarning[] = [];
  for (const cls of ['smuggling', 'harmless', 'emoji'] as const) {
    const found = byClass.get(cls);
    if (!found) continue;
    const where = found
      .slice(0, MAX_LISTED)
      .map((f) => `line ${f.line + lineOffset}, column ${f.column}: ${f.what} (${f.codePoints.length > 3 ? `${f.codePoint}…, ${f.codePoints.length} characters` : f.codePoints.join(' ')})`)
      .join('; ');
    const more = found.length > MAX_LISTED ? ` (${found.length} places in all)` : '';
    const spelled = found.map((f) => (f.class === 'smuggling' ? f.hiddenText : null)).filter((t): t is string => !!t);
    const hidden = spelled.length ? ` The TAG characters spell, invisibly: ${JSON.stringify(spelled.join(' ').slice(0, 200))}.` : '';
    const first = found[0].line + lineOffset;
    if (cls === 'smuggling') {
      out.push(
        warning(
          CODE[cls],
          SEVERITY[cls],
          `Invisible characters that can hide or reorder instructions: ${where}${more}.${hidden} Atrium loads the file but sends and shows each of them as ⟨U+XXXX⟩; an agent that reads the file itself gets them as they are.`,
          first,
          `Delete the invisible characters (first at line ${first}, column ${found[0].column}), or write the intended text visibly.`,
        ),
      );
    } else if (cls === 'harmless') {
      out.push(warning(CODE[cls], SEVERITY[cls], `Invisible characters a reader cannot see: ${where}${more}. They change nothing an agent reads, and the file loads as written.`, first, `Delete them if they are not intended (first at line ${first}, column ${found[0].column}).`));
    } else {
      out.push(warning(CODE[cls], SEVERITY[cls], `Invisible characters inside emoji: ${where}${more}. The file loads as written.`, first, null));
    }
  }
  return out;
}
