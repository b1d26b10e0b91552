import type { RuleFile } from './types';

/** Why a file of a trusted folder was not read, by its error code (see `readSource.ts`), as the list says it. */
const NOT_READ: Readonly<Record<string, string>> = {
  'too-large': 'over the size limit',
  binary: 'binary file',
  encoding: 'not UTF-8',
  'dangling-symlink': 'symlink to nothing',
  'symlink-escape': 'symlink out of the folder',
  'not-a-file': 'not a file',
  unreadable: 'unreadable',
};

/**
 * When a file loads, as one short phrase for lists (the Files list, `atrium rules list`):
 * "always", "when src/**, docs/**", "never: paths is empty", "not read (folder not trusted)"…
 * Never a bare label: a conditional file without usable patterns says why it cannot load, and one
 * whose every pattern matches no workspace file says so (`unmatched`: those patterns, from lint).
 * Pure.
 */
export function describeCondition(file: RuleFile, unmatched: ReadonlySet<string>): string {
  if (file.kind === 'unknown') return file.status === 'restricted' ? 'not read (folder not trusted)' : `not read (${NOT_READ[file.warnings.find((w) => w.severity === 'error')?.code ?? ''] ?? 'see its warnings'})`;
  if (file.kind === 'always') return file.status === 'inert' ? 'always, but its body is empty' : 'always';
  if (file.kind === 'manual') return 'manual: only when mentioned, never automatically';
  if (file.kind === 'agent-requested') return 'agent-requested: Cursor offers it by description; Atrium never loads it automatically';
  const key = file.conditionKey ?? 'paths';
  if (file.patterns.length === 0) return file.status === 'invalid' ? `never: ${key} is not a usable pattern list` : `never: ${key} is empty`;
  const when = `when ${file.patterns.join(', ')}`;
  return file.patterns.every((p) => unmatched.has(p)) ? `${when} (no pattern matches any file)` : when;
}
