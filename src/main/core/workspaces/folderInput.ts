import fs from 'node:fs';
import path from 'node:path';

/**
 * A folder path as a person types it, with a leading `~` (alone, or followed by `/`, or `\` on
 * Windows) replaced by `home`, as a shell would; `~user` forms and anything else are returned
 * unchanged (still refused later if relative). Surrounding whitespace is trimmed.
 */
export function expandHome(input: string, home: string): string {
  const raw = input.trim();
  if (raw === '~') return home;
  // concatenated, not path.join: a typed trailing `/.` or `/` is part of what completion reads
  if (raw.startsWith('~/') || (path.sep === '\\' && raw.startsWith('~\\'))) return home.replace(/[\\/]$/, '') + raw.slice(1);
  return raw;
}

/** At most this many folders are listed for one prefix. */
export const MAX_FOLDER_COMPLETIONS = 50;

/**
 * Folder completion for a typed absolute path (`~` expanded first, see {@link expandHome}): the
 * subfolders of the prefix's parent whose names start with the typed last segment, sorted by
 * name, each with a trailing separator, written with `~` again when the input used it. Folders
 * starting with `.` are listed only when the last segment starts with `.`. A relative, missing or
 * unreadable prefix yields nothing. Only directory names are read (one `readdir`); no file is
 * opened and nothing is run. Symlinks to folders count as folders.
 */
export function completeFolder(prefix: string, home: string, limit = MAX_FOLDER_COMPLETIONS): string[] {
  const typed = prefix.trim();
  const expanded = expandHome(typed, home);
  if (!path.isAbsolute(expanded)) return [];
  const endsWithSep = /[\\/]$/.test(expanded) || typed === '~';
  const dir = endsWithSep ? expanded : path.dirname(expanded);
  const partial = endsWithSep ? '' : path.basename(expanded);
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const usesTilde = typed === '~' || typed.startsWith('~/') || typed.startsWith('~\\');
  const show = (full: string) => (usesTilde && (full === home || full.startsWith(home + path.sep)) ? `~${full.slice(home.length)}` : full);
  const names = entries
    .filter((e) => e.name.startsWith(partial) && (partial.startsWith('.') || !e.name.startsWith('.')))
    .filter((e) => e.isDirectory() || (e.isSymbolicLink() && isDirectory(path.join(dir, e.name))))
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b))
    .slice(0, limit);
  return names.map((n) => show(path.join(dir, n)) + path.sep);
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
