import path from 'node:path';
import type { ExtensionSource } from '../../../shared/contract/extensions';
import { layerOf, type Layer } from './precedence';

/** A folder a kind is read from. */
export interface ScanRoot {
  /** Absolute folder (may not exist). */
  dir: string;
  layer: Layer;
  source: ExtensionSource;
  /** `claude`, `blade` or `plugin`. */
  tool: string;
  /** Plugin name for plugin folders, else null. */
  plugin: string | null;
}

/**
 * The native folders of one kind (`skills`, `commands`, `agents`, `output-styles`) in precedence
 * order: `~/.claude/<sub>`, `~/.blade/<sub>` (unless `includeUser` is false: the
 * project-only discovery), then, only when the trust gate allows the project,
 * `<workspace>/.claude/<sub>` and `<workspace>/.blade/<sub>`.
 */
export function nativeRoots(sub: string, homeDir: string, workspaceDir: string, trusted: boolean, includeUser = true): ScanRoot[] {
  const roots: ScanRoot[] = [];
  const scopes = [...(includeUser ? (['user'] as const) : []), ...(trusted ? (['project'] as const) : [])];
  for (const scope of scopes) {
    for (const tool of ['claude', 'blade'] as const) {
      const base = scope === 'user' ? homeDir : workspaceDir;
      roots.push({ dir: path.join(base, `.${tool}`, sub), layer: layerOf(scope, tool), source: scope, tool, plugin: null });
    }
  }
  return roots;
}

/** Documentation files that sit among resources without being one (vendored READMEs etc.). */
export const DOC_NAMES = /^(README|LICENSE|LICENCE|CONTRIBUTING|CODE_OF_CONDUCT|CHANGELOG|SECURITY|NOTICE|AUTHORS)(\.[a-z]+)?$/i;
