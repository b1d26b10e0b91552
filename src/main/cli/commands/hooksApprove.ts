import type { HookAuditEntry, HookListing } from '../../../shared/contract';
import { AtriumError } from '../../../shared/errors';
import type { CliContext } from '../context';
import { shellArg } from '../shellArg';
import { target } from '../workspaceRef';
import { uncoveredLines } from './hooksOutput';

/** Options `atrium hooks approve` and `atrium mcp approve` share. */
export interface ApproveFlags {
  digest?: string;
  acknowledgeUncovered?: boolean;
}

/**
 * Approves `ids` through `hooks.approve`, with `acknowledgeUncovered` only when the user passed
 * `--acknowledge-uncovered`. When the engine refuses items its digest does not fully cover
 * (HOOK_UNCOVERED, nothing recorded), the error is rewritten for a terminal: every such item with
 * each "not covered by the digest" line, and the exact command to re-run after reading them
 * (with `--digest` pinned to what was listed when one id was named). Exit code 1 as for every failure.
 */
export async function approveFromCli(ctx: CliContext, dir: string, ids: readonly string[], flags: ApproveFlags, command: 'hooks' | 'mcp'): Promise<HookAuditEntry[]> {
  const t = target(ctx.engine, dir, { mustExist: true });
  const items = ids.map((id) => ({ id, ...(flags.digest ? { digest: flags.digest } : {}), ...(flags.acknowledgeUncovered ? { acknowledgeUncovered: true } : {}) }));
  try {
    return (await ctx.dispatcher.call('hooks.approve', { ...t, items, via: 'cli' })).changes;
  } catch (error) {
    if (!(error instanceof AtriumError) || error.code !== 'HOOK_UNCOVERED') throw error;
    let listing: HookListing;
    try {
      listing = await ctx.dispatcher.call('hooks.list', t);
    } catch {
      throw error;
    }
    const refused = ids.flatMap((id) => {
      const item = listing.hooks.find((h) => h.id === id) ?? listing.mcpServers.find((s) => s.id === id);
      return item && item.uncovered.length ? [{ id, digest: item.digest, what: 'event' in item ? `${item.event}${item.matcher ? ` [${item.matcher}]` : ''}: ${item.command ?? item.url ?? item.type}` : `MCP ${item.name}`, uncovered: item.uncovered }] : [];
    });
    if (refused.length === 0) throw error;
    const digest = flags.digest ?? (ids.length === 1 ? refused[0].digest : undefined);
    const rerun = ['atrium', command, 'approve', shellArg(dir), ...ids.map(shellArg), ...(digest ? ['--digest', digest] : []), '--acknowledge-uncovered'].join(' ');
    const lines = [
      `Nothing was approved: ${refused.length === 1 ? `${refused[0].id} runs code` : `${refused.length} of these run code`} its digest does not cover, so Atrium cannot tell when that code changes.`,
      ...refused.flatMap((r) => [`  ${r.id}  ${r.what}`, ...uncoveredLines(r.uncovered, '    ')]),
      `Approving trusts that code unchecked, whatever it is each time it runs. After reading it, re-run with the acknowledgement:`,
      `  ${rerun}`,
    ];
    throw new AtriumError('HOOK_UNCOVERED', lines.join('\n'));
  }
}

/**
 * Runs an `atrium hooks approve|revoke|diff` request and, when it fails with NOT_FOUND for an id,
 * rewrites the error for a terminal: an MCP server's name (what `atrium mcp list` shows) points to
 * the `atrium mcp` command that takes names, and any other unknown id points to
 * `atrium hooks list DIR` with the DIR the user typed. The code stays NOT_FOUND (exit 1). In
 * restricted mode the engine's own message (trust the folder first) is kept.
 */
export async function explainUnknownIds<T>(ctx: CliContext, dir: string, ids: readonly string[], verb: 'approve' | 'revoke' | 'diff', run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof AtriumError) || error.code !== 'NOT_FOUND') throw error;
    let listing: HookListing;
    try {
      listing = await ctx.dispatcher.call('hooks.list', target(ctx.engine, dir, { mustExist: true }));
    } catch {
      throw error;
    }
    if (listing.restricted) throw error;
    const unknown = ids.find((id) => !listing.hooks.some((h) => h.id === id) && !listing.mcpServers.some((s) => s.id === id));
    if (unknown === undefined) throw error;
    const named = listing.mcpServers.filter((s) => s.name === unknown);
    if (named.length > 0) {
      const how =
        verb === 'diff'
          ? `give its id: atrium hooks diff ${shellArg(dir)} ${named[0].id}`
          : `use: atrium mcp ${verb} ${shellArg(dir)} ${named.length === 1 ? shellArg(unknown) : named[0].id}`;
      throw new AtriumError('NOT_FOUND', `"${unknown}" is the name of ${named.length === 1 ? `MCP server ${named[0].id}` : `MCP servers ${named.map((s) => s.id).join(', ')}`}, not a hook id; ${how}`);
    }
    throw new AtriumError('NOT_FOUND', `No hook or MCP server "${unknown}" in ${listing.path}. Run "atrium hooks list ${shellArg(dir)}" to see the ids.`);
  }
}
