import { promises as fs } from 'node:fs';
import type { HookVersion } from '../../../shared/contract';
import { AtriumError } from '../../../shared/errors';
import { sortKeys } from '../formats/canonicalJson';
import type { ApprovalRow } from './repository';

/** Longest script text kept for diffs (256 KiB). */
export const SNAPSHOT_MAX = 256 * 1024;
/** Longest script text returned by `hooks.readScript` (1 MiB). */
export const READ_SCRIPT_MAX = 1024 * 1024;

/**
 * True for paths of credential files (`~/.ssh/…`, `~/.aws/…`, `id_rsa`, `*.pem`, `.env`…): a hook may
 * name one as its "script" (`bash ~/.ssh/id_rsa`); it is hashed like any other file, but its text is
 * never stored in the database nor shown.
 */
export function isCredentialPath(abs: string): boolean {
  return /[\\/]\.(ssh|aws|gnupg|kube|docker|azure|netrc|npmrc|pypirc|git-credentials)([\\/]|$)|[\\/]\.config[\\/](gh|gcloud)([\\/]|$)|[\\/]id_(rsa|ed25519|ecdsa|dsa)[^\\/]*$|\.(pem|key|p12|pfx)$|[\\/]\.env(\.[^\\/]*)?$/.test(abs);
}

/** A script's text for a snapshot or diff: null when binary, unreadable or a credential file; cut at `max` characters. */
export async function scriptText(abs: string, max = SNAPSHOT_MAX): Promise<{ content: string | null; truncated: boolean }> {
  if (isCredentialPath(abs)) return { content: null, truncated: false };
  try {
    const bytes = await fs.readFile(abs);
    if (bytes.subarray(0, 8192).includes(0)) return { content: null, truncated: false };
    const text = bytes.toString('utf8');
    return text.length > max ? { content: text.slice(0, max), truncated: true } : { content: text, truncated: false };
  } catch {
    return { content: null, truncated: false };
  }
}

/** Pretty canonical JSON of a definition (keys sorted), for diffs. */
export function prettyDefinition(definition: unknown): string {
  return JSON.stringify(sortKeys(definition), null, 2);
}

/** The current version of a hook or server: its definition and the scripts' present contents. */
export async function currentVersion(digest: string, definition: unknown, scripts: ReadonlyArray<{ abs: string; path: string; sha256: string }>): Promise<HookVersion> {
  return {
    digest,
    definition: prettyDefinition(definition),
    scripts: await Promise.all(scripts.map(async (s) => ({ path: s.path, sha256: s.sha256, content: (await scriptText(s.abs)).content }))),
  };
}

/** The approved version recorded in an approval row, with script texts from the snapshots. */
export function approvedVersion(row: ApprovalRow, content: (sha256: string) => string | null): HookVersion {
  return {
    digest: row.digest,
    definition: prettyDefinition(JSON.parse(row.definitionJson)),
    scripts: row.scripts.map((s) => ({ path: s.path, sha256: s.sha256, content: content(s.sha256) })),
  };
}

/**
 * Reads a referenced script for display (≤ {@link READ_SCRIPT_MAX}); credential files are refused.
 * @throws AtriumError NOT_FOUND | PATH_UNREADABLE
 */
export async function readScriptFile(abs: string, shown: string): Promise<{ content: string; size: number; truncated: boolean; binary: boolean }> {
  if (isCredentialPath(abs)) throw new AtriumError('PATH_UNREADABLE', `${shown} looks like a credential file; Atrium hashes it but never shows its content.`);
  let bytes: Buffer;
  try {
    const st = await fs.stat(abs);
    const handle = await fs.open(abs, 'r');
    try {
      const length = Math.min(st.size, READ_SCRIPT_MAX);
      bytes = Buffer.alloc(length);
      const { bytesRead } = await handle.read(bytes, 0, length, 0);
      bytes = bytes.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
    const binary = bytes.subarray(0, 8192).includes(0);
    return { content: binary ? '' : bytes.toString('utf8'), size: st.size, truncated: st.size > READ_SCRIPT_MAX, binary };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new AtriumError('NOT_FOUND', `${shown} no longer exists. Refresh the hooks list.`);
    throw new AtriumError('PATH_UNREADABLE', `Atrium may not read ${shown} (${code ?? 'error'}). Check its permissions.`);
  }
}
