import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { readMarkdown, symlinkAsText, warn } from '../read';
import type { ScanRoot } from '../roots';
import type { SkillRecord } from '../types';
import { skillFromFile } from './parse';
import { directFileAccess, type FileReader } from '../../files/scan';

/** At most this many skill folders are read per root. */
const MAX_SKILLS_PER_ROOT = 500;

/**
 * Skills of one root: every immediate subfolder (or link to a folder) holding `SKILL.md` (seed §10).
 * A dangling link, or a link stored as a text file (the corpus's `.claude/skills/x`), is a warning;
 * other files are ignored. `files` reads the contents (a build's scan). Never throws.
 */
export async function scanSkills(root: ScanRoot, shown: (abs: string) => string, files: FileReader = directFileAccess): Promise<{ skills: SkillRecord[]; warnings: ExtensionWarning[] }> {
  const skills: SkillRecord[] = [];
  const warnings: ExtensionWarning[] = [];
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(root.dir, { withFileTypes: true });
  } catch {
    return { skills, warnings };
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries.slice(0, MAX_SKILLS_PER_ROOT)) {
    if (e.name.startsWith('.')) continue;
    const abs = path.join(root.dir, e.name);
    let isDir = e.isDirectory();
    if (e.isSymbolicLink()) {
      try {
        isDir = (await fs.stat(abs)).isDirectory();
      } catch {
        const target = await fs.readlink(abs).catch(() => '?');
        warnings.push(warn(shown(abs), null, `skill link to "${target}", which does not exist; the skill "${e.name}" is not loaded`, 'Remove the link, or restore its target (e.g. install the skill it points to).'));
        continue;
      }
    }
    if (!isDir) {
      if (e.isFile()) {
        const content = await readHead(abs, files);
        const asText = content === null ? null : symlinkAsText(content, shown(abs));
        if (asText) warnings.push({ ...asText, message: `${asText.message}; the skill "${e.name}" is not loaded` });
      }
      continue;
    }
    const file = path.join(abs, 'SKILL.md');
    try {
      await fs.access(file);
    } catch {
      continue; // a folder without SKILL.md is not a skill (supporting files, templates)
    }
    skills.push(skillFromFile(await readMarkdown(file, shown(file), undefined, files), e.name, root, file, shown(file)));
  }
  if (entries.length > MAX_SKILLS_PER_ROOT) warnings.push(warn(shown(root.dir), null, `more than ${MAX_SKILLS_PER_ROOT} entries; the rest is not listed`, null));
  return { skills, warnings };
}

async function readHead(abs: string, files: FileReader): Promise<string | null> {
  try {
    const st = await fs.stat(abs);
    if (st.size > 512) return null;
    return await files.readText(abs);
  } catch {
    return null;
  }
}
