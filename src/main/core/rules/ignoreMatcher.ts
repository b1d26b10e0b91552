import { promises as fs } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { ALWAYS_SKIPPED_DIRS } from '../files/listWorkspaceFiles';
import { runGit } from '../git/runGit';

/**
 * `.gitignore` rules of a workspace, for deciding about paths that appear after the listing
 * (watcher events). Built from the `.gitignore` files of the file list with the `ignore` library;
 * `.git` and `node_modules` are always ignored. Exact git answers (global excludes,
 * `.git/info/exclude`) come from {@link isIgnoredByGit}.
 */
export class IgnoreMatcher {
  private constructor(private readonly rules: ReadonlyArray<{ base: string; ig: Ignore }>) {}

  /** Reads every listed `.gitignore` (root-relative paths) below `root`. Unreadable ones are skipped. */
  static async load(root: string, files: readonly string[]): Promise<IgnoreMatcher> {
    const rules: Array<{ base: string; ig: Ignore }> = [];
    for (const rel of files) {
      if (rel !== '.gitignore' && !rel.endsWith('/.gitignore')) continue;
      try {
        const text = await fs.readFile(path.join(root, rel), 'utf8');
        rules.push({ base: rel === '.gitignore' ? '' : rel.slice(0, -'/.gitignore'.length), ig: ignore().add(text) });
      } catch {
        // unreadable: ignore its rules
      }
    }
    rules.sort((a, b) => a.base.length - b.base.length);
    return new IgnoreMatcher(rules);
  }

  /** True when root-relative POSIX `rel` is ignored (a skipped directory name or a `.gitignore` rule). */
  ignores(rel: string, isDir = false): boolean {
    if (rel === '') return false;
    const segments = rel.split('/');
    if (segments.some((s) => ALWAYS_SKIPPED_DIRS.has(s))) return true;
    for (const { base, ig } of this.rules) {
      if (base !== '' && !rel.startsWith(`${base}/`)) continue;
      const local = base ? rel.slice(base.length + 1) : rel;
      if (ig.ignores(isDir ? `${local}/` : local)) return true;
    }
    return false;
  }
}

/** `git check-ignore -q`: true when git ignores root-relative `rel`; false on any error. */
export async function isIgnoredByGit(root: string, rel: string): Promise<boolean> {
  return (await runGit(['check-ignore', '-q', '--', rel], { cwd: root })).code === 0;
}
