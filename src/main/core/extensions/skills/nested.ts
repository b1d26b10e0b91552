import path from 'node:path';
import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { directFileAccess, type FileAccess } from '../../files/scan';
import { layerOf } from '../precedence';
import type { ScanRoot } from '../roots';
import type { SkillRecord } from '../types';
import { scanSkills } from './scan';

/** A nested skills folder: `<dir>/.claude/skills` or `<dir>/.blade/skills` below the workspace root. */
export interface NestedSkillRoot extends ScanRoot {
  /** The folder holding the config folder, workspace-relative POSIX (`apps/web`). */
  qualifier: string;
}

const NESTED = /^(.+?)\/\.(claude|blade)\/skills\/[^/]+/;

/**
 * The nested skills folders of a workspace (formats.md §2.8: `.claude/skills/` below the project
 * root load when the agent works in that subtree), found in the workspace file listing of the
 * rules catalog (`files/listWorkspaceFiles`: tracked and untracked-not-ignored files, never
 * `node_modules` or `.git`), so git-ignored folders are skipped. `files` is the build's scan: its
 * one listing, so the workspace is not listed again here. Sorted; never throws.
 */
export async function nestedSkillRoots(workspaceDir: string, access: FileAccess = directFileAccess): Promise<NestedSkillRoot[]> {
  let files: string[];
  try {
    files = (await access.list(workspaceDir, { verifyExistence: false })).files;
  } catch {
    return [];
  }
  const found = new Map<string, NestedSkillRoot>();
  for (const rel of files) {
    const m = NESTED.exec(rel);
    if (!m || m[1].split('/').some((seg) => seg === '.claude' || seg === '.blade')) continue;
    const tool = m[2] as 'claude' | 'blade';
    const key = `${m[1]}/.${tool}/skills`;
    if (!found.has(key)) found.set(key, { dir: path.join(workspaceDir, ...key.split('/')), layer: layerOf('project', tool), source: 'project', tool, plugin: null, qualifier: m[1] });
  }
  return [...found.keys()].sort().map((k) => found.get(k)!);
}

/**
 * Skills of the nested folders. A nested skill keeps its folder name as id unless another project
 * skill (top-level or nested) has the same name; then every nested one of that name gets the
 * directory-qualified id `<dir>:<name>` (`apps/web:deploy`, formats.md §2.8), so none hides another.
 */
export async function scanNestedSkills(roots: readonly NestedSkillRoot[], topLevelIds: ReadonlySet<string>, shown: (abs: string) => string, files: FileAccess = directFileAccess): Promise<{ skills: SkillRecord[]; warnings: ExtensionWarning[] }> {
  const found: Array<{ skill: SkillRecord; qualifier: string }> = [];
  const warnings: ExtensionWarning[] = [];
  for (const root of roots) {
    const r = await scanSkills(root, shown, files);
    for (const skill of r.skills) found.push({ skill, qualifier: root.qualifier });
    warnings.push(...r.warnings);
  }
  const seen = new Map<string, number>();
  for (const { skill } of found) seen.set(skill.id, (seen.get(skill.id) ?? 0) + 1);
  const skills = found.map(({ skill, qualifier }) => (topLevelIds.has(skill.id) || seen.get(skill.id)! > 1 ? { ...skill, id: `${qualifier}:${skill.id}` } : skill));
  return { skills, warnings };
}
