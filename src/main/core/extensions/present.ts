import type { ExtensionKind, ExtensionsListResult } from '../../../shared/contract/extensions';
import type { ExtensionCatalog } from './types';

const strip = <T extends object>(record: T, keys: readonly string[]): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) if (!keys.includes(k)) out[k] = v;
  return out;
};
const INTERNAL = ['absolutePath', 'layer', 'local', 'template', 'bodyLine', 'prompt', 'root', 'manifest', 'entry', 'meta'];

/**
 * The contract's `extensions.list` shape of a catalog (engine-only fields such as absolute paths,
 * command templates and style prompts removed). With `kind`, the other kinds' arrays are empty.
 */
export function presentList(c: ExtensionCatalog, kind?: ExtensionKind): ExtensionsListResult {
  const want = (k: ExtensionKind) => kind === undefined || kind === k;
  const list = <T extends object>(items: readonly T[], k: ExtensionKind) => (want(k) ? items.map((i) => strip(i, INTERNAL)) : []);
  return {
    root: c.root,
    trust: c.trusted ? 'trusted' : 'restricted',
    restrictedCounts: { ...c.restrictedCounts },
    skills: list(c.skills, 'skills'),
    commands: list(c.commands, 'commands'),
    agents: list(c.agents, 'agents'),
    plugins: list(c.plugins, 'plugins'),
    mcpServers: list(c.mcpServers, 'mcp'),
    styles: list(c.styles, 'styles'),
    lspServers: list(c.lspServers, 'lsp'),
    warnings: [...c.warnings],
    digest: c.digest,
  } as ExtensionsListResult;
}
