import { promises as fs } from 'node:fs';
import { AtriumError } from '../../../../shared/errors';
import { parseMarkdown, failed } from '../read';
import type { SkillRecord } from '../types';

/**
 * Reads a skill's body now and checks it against the digest the bundle (or snapshot) recorded when
 * it was built (the anchor re-reads bodies and lets them drift, seed §16.8). Fails closed.
 * @returns the body (text after the frontmatter, normalised), the digest and the body's 1-based first line in the file
 * @throws AtriumError EXTENSION_CHANGED when the file changed, disappeared or cannot be read since
 */
export async function readSkillBody(skill: SkillRecord): Promise<{ body: string; sha256: string; bodyLine: number }> {
  if (skill.sha256 === null) throw new AtriumError('EXTENSION_CHANGED', `The skill ${skill.id} could not be read when the workspace was loaded (${skill.path}); fix it and reload.`);
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(skill.absolutePath);
  } catch (error) {
    throw new AtriumError('EXTENSION_CHANGED', `The skill ${skill.id} is gone (${skill.path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}); reload the workspace's extensions.`);
  }
  const file = parseMarkdown(bytes, skill.path);
  if (failed(file) || file.sha256 !== skill.sha256) {
    throw new AtriumError(
      'EXTENSION_CHANGED',
      `The skill ${skill.id} changed on disk since it was loaded (${skill.path}); its body is not used. Start a new session (or reload) to use the new version.`,
    );
  }
  return { body: file.body, sha256: file.sha256, bodyLine: file.bodyLine };
}
