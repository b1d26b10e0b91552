import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ExtensionWarning } from '../../../shared/contract/extensions';
import { warn } from './read';

/** A Markdown file found below a root. */
export interface FoundFile {
  absolute: string;
  /** Relative to the root, POSIX. */
  rel: string;
}

/**
 * Every `*.md` file below `root` (following links to files and folders, at most `maxDepth` folders
 * deep and `maxFiles` files), sorted by relative path. Dangling links become warnings (`shown`
 * maps an absolute path to its display form). A missing root yields nothing. Never throws.
 */
export async function findMarkdown(root: string, shown: (abs: string) => string, options: { maxDepth?: number; maxFiles?: number; skip?: (name: string) => boolean } = {}): Promise<{ files: FoundFile[]; warnings: ExtensionWarning[] }> {
  const maxDepth = options.maxDepth ?? 8;
  const maxFiles = options.maxFiles ?? 2000;
  const files: FoundFile[] = [];
  const warnings: ExtensionWarning[] = [];
  const seen = new Set<string>();
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    let real: string;
    try {
      real = await fs.realpath(dir);
    } catch {
      return;
    }
    if (seen.has(real)) return; // a link loop, or the same folder reached twice
    seen.add(real);
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (files.length >= maxFiles) {
        warnings.push(warn(shown(root), null, `more than ${maxFiles} files; the rest is not listed`, 'Move unrelated files out of this folder.'));
        return;
      }
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const abs = path.join(dir, e.name);
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        try {
          const st = await fs.stat(abs);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          if (/\.md$/i.test(e.name) || !e.name.includes('.')) warnings.push(warn(shown(abs), null, `symbolic link to "${await fs.readlink(abs).catch(() => '?')}", which does not exist; nothing is loaded from it`, 'Remove the link or restore its target.'));
          continue;
        }
      }
      if (isDir && depth < maxDepth) await walk(abs, childRel, depth + 1);
      else if (isFile && /\.md$/i.test(e.name) && !options.skip?.(e.name)) files.push({ absolute: abs, rel: childRel });
    }
  };
  await walk(root, '', 1);
  return { files, warnings };
}
