import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { warn } from '../read';

/**
 * Atrium expands positional arguments the way Claude Code does since v2.1.19 (formats.md §2.9):
 * **0-based**, `$0` (= `$ARGUMENTS[0]`) is the first argument. Older Claude Code docs and Blade
 * (seed §11) used 1-based `$1`. A template that uses `$1`…`$9` but never `$0` was almost surely
 * written for the 1-based convention: this returns a warning saying what each placeholder gets.
 */
export function indexingWarning(template: string, shown: string, bodyLine: number, argumentHint: string | null): ExtensionWarning | null {
  const used = new Set<number>();
  for (const m of template.matchAll(/(?<!\\)\$(\d+)(?!\d)/g)) used.add(Number(m[1]));
  for (const m of template.matchAll(/\$ARGUMENTS\[(\d+)\]/g)) used.add(Number(m[1]));
  if (used.size === 0 || used.has(0)) return null;
  const max = Math.max(...used);
  const hintWords = argumentHint ? argumentHint.trim().split(/\s+/).length : null;
  const lineIndex = template.split('\n').findIndex((l) => /(?<!\\)\$[1-9]/.test(l));
  const line = lineIndex < 0 ? null : bodyLine + lineIndex;
  const because = hintWords !== null && hintWords === max ? ` (argument-hint names ${hintWords} argument${hintWords === 1 ? '' : 's'})` : '';
  return warn(
    shown,
    line,
    `uses ${max === 1 ? "$1" : `$1…$${max}`} but never $0: it looks written for 1-based arguments${because}. Atrium and Claude Code (≥ 2.1.19) count from $0, so $1 is the second argument and the first one is not inserted`,
    max === 1 ? 'Use $0 for the first argument (or $ARGUMENTS for all of them).' : `Renumber to $0…$${max - 1} (or use $ARGUMENTS).`,
  );
}
