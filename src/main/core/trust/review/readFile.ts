import { promises as fs } from 'node:fs';
import path from 'node:path';
import { AtriumError } from '../../../../shared/errors';
import { maskFrontmatterValues, maskJsonValues, maskTomlValues, type MaskPredicate } from '../../formats/maskValues';
import { isAncestorOrSelf } from '../../workspaces/paths';
import { maskUrlSecretsInText } from '../../formats/secrets';

/** Most bytes returned by {@link readWorkspaceFile} (1 MiB). */
export const READ_FILE_LIMIT = 1024 * 1024;

/** Keys whose value is a map of environment variables or HTTP headers (any tool's spelling). */
const SECRET_MAP_KEYS = new Set(['env', 'environment', 'headers', 'http_headers', 'env_http_headers']);

/** Keys whose children are named by the repository (server names): a server called `env` is not an env map. */
const NAMED_CHILDREN_KEYS = new Set(['mcpservers', 'mcp_servers', 'servers', 'lspservers', 'context_servers']);

/**
 * True for a value inside an `env` / `headers` / `environment` / `http_headers` map (or such a key
 * written with a plain value): the trust review shows their names only, never their values.
 */
export const isEnvOrHeaderValue: MaskPredicate = (keys) =>
  keys.some((key, k) => SECRET_MAP_KEYS.has(key.toLowerCase()) && (k === 0 || !NAMED_CHILDREN_KEYS.has(keys[k - 1].toLowerCase())));

/**
 * A config file's text with env and header values replaced by `••••••` (JSON, JSONC and TOML, by
 * extension: `.mcp.json`, `.cursor/mcp.json`, `.vscode/mcp.json`, `.claude/settings*.json`,
 * `.gemini/settings.json`, `.codex/config.toml`, plugin `hooks.json`, ...; and the YAML
 * frontmatter of Markdown files, where a subagent's `mcpServers` or a skill's `hooks` may sit).
 * Secret-looking URL query values and passwords are masked too (`formats/secrets.ts` `maskUrlSecrets`).
 * Other files unchanged.
 */
export function maskConfigText(rel: string, text: string): string {
  const lower = rel.toLowerCase();
  // a URL's credentials (`?token=…`, `user:password@`) are masked wherever the URL sits
  if (lower.endsWith('.json') || lower.endsWith('.jsonc')) return maskUrlSecretsInText(maskJsonValues(text, isEnvOrHeaderValue));
  if (lower.endsWith('.toml')) return maskUrlSecretsInText(maskTomlValues(text, isEnvOrHeaderValue));
  if (lower.endsWith('.md') || lower.endsWith('.mdc')) return maskUrlSecretsInText(maskFrontmatterValues(text, isEnvOrHeaderValue));
  return text;
}

/** Content of one workspace file, for expanding a review item. */
export interface WorkspaceFileContent {
  /** The relative path asked for (POSIX). */
  path: string;
  /** UTF-8 text (invalid sequences become U+FFFD); empty for binary files; env and header values of JSON/TOML config masked ({@link maskConfigText}). */
  content: string;
  /** Size on disk in bytes. */
  size: number;
  /** True when only the first {@link READ_FILE_LIMIT} bytes are returned. */
  truncated: boolean;
  /** True when the first 8 KiB contain a NUL byte (content is then empty). */
  binary: boolean;
}

/**
 * Reads a file inside a workspace, confined to it: the path must be relative, may not climb out
 * with `..`, and its real location (after following links) must be inside the workspace's real
 * location. Reads at most 1 MiB. The folder is not trusted yet when this serves the trust review,
 * and the review promises environment variable and header names only: every value of an `env`,
 * `headers`, `environment` or `http_headers` map in a JSON or TOML file comes back as `••••••`.
 *
 * @param root absolute workspace folder
 * @param rel workspace-relative path (`/` or `\` separators)
 * @throws AtriumError PATH_OUTSIDE_WORKSPACE | NOT_FOUND | NOT_A_FILE | PATH_UNREADABLE
 */
export async function readWorkspaceFile(root: string, rel: string): Promise<WorkspaceFileContent> {
  const posix = rel.replace(/\\/g, '/');
  const normal = path.posix.normalize(posix);
  if (path.posix.isAbsolute(posix) || path.isAbsolute(rel) || normal === '..' || normal.startsWith('../')) {
    throw new AtriumError('PATH_OUTSIDE_WORKSPACE', `"${rel}" is not inside the workspace. Give a path relative to the workspace folder.`);
  }
  let realRoot: string;
  let real: string;
  try {
    realRoot = await fs.realpath(root);
    real = await fs.realpath(path.join(root, normal));
  } catch {
    throw new AtriumError('NOT_FOUND', `"${normal}" does not exist in the workspace (or is a link to nothing). Refresh the review.`);
  }
  if (!isAncestorOrSelf(realRoot, real)) {
    throw new AtriumError('PATH_OUTSIDE_WORKSPACE', `"${normal}" leads outside the workspace (to ${real}); Atrium shows only files inside it.`);
  }
  let handle: import('node:fs/promises').FileHandle | null = null;
  try {
    const st = await fs.stat(real);
    if (!st.isFile()) throw new AtriumError('NOT_A_FILE', `"${normal}" is not a regular file.`);
    handle = await fs.open(real, 'r');
    const length = Math.min(st.size, READ_FILE_LIMIT);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    const binary = bytes.subarray(0, 8192).includes(0);
    return { path: normal, content: binary ? '' : maskConfigText(normal, bytes.toString('utf8')), size: st.size, truncated: st.size > READ_FILE_LIMIT, binary };
  } catch (error) {
    if (error instanceof AtriumError) throw error;
    throw new AtriumError('PATH_UNREADABLE', `Atrium may not read "${normal}" (${(error as NodeJS.ErrnoException).code ?? 'error'}). Check its permissions.`);
  } finally {
    await handle?.close();
  }
}
