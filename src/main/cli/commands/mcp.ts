import type { Command } from 'commander';
import type { HookListing } from '../../../shared/contract';
import { CliError, runWithEngine, withGlobalOptions, type GlobalOptions } from '../context';
import { target } from '../workspaceRef';
import { approveFromCli } from './hooksApprove';
import { describeChanges, describeListing } from './hooksOutput';

/**
 * `atrium mcp list|approve|revoke`: repository MCP servers use the same
 * digest approval as hooks. `--json`: `list DIR` → `{mcpServers: [{id, name, digest, state, transport, command, args, url, env, headers (secret-looking values masked), source, danger, warnings, variables: [{text, kind, name, fallback}], expansion: {dialect, command, args, url, env, headers (expanded, masked), missing, unresolvable, blanked: [{name, why}]} | null, ...}], restricted, warnings}`;
 * `approve DIR ID... [--digest D] [--acknowledge-uncovered]` / `revoke DIR ID...` → `{changes: [...]}`; a server
 * whose digest does not cover what it runs (`npx -y pkg@latest`) fails with exit 1 unless `--acknowledge-uncovered`.
 */
export function registerMcpCommands(program: Command): void {
  const mcp = program.command('mcp').description('MCP servers from repository files, approved by digest like hooks');

  withGlobalOptions(mcp.command('list <dir>').description('list the MCP servers repository files declare, with digest and state')).action((dir: string, opts: GlobalOptions) =>
    runWithEngine(opts, async ({ engine, dispatcher, print }) => {
      const listing = await dispatcher.call('hooks.list', target(engine, dir, { mustExist: true }));
      print({ path: listing.path, trustRoot: listing.trustRoot, restricted: listing.restricted, mcpServers: listing.mcpServers, warnings: listing.warnings }, () => describeListing(listing, engine.hooks.home, 'mcp'));
    }),
  );

  withGlobalOptions(mcp.command('approve <dir> <ids...>').description('approve MCP servers at their current digest'))
    .option('--digest <digest>', 'the digest you reviewed (refused with HOOK_DIGEST_MISMATCH when the server changed since); one id only')
    .option('--acknowledge-uncovered', 'approve even what the digest does not cover (the "not covered by the digest" lines of "atrium mcp list"), after reading it')
    .action((dir: string, ids: string[], opts: GlobalOptions & { digest?: string; acknowledgeUncovered?: boolean }) =>
      runWithEngine(opts, async (ctx) => {
        const { engine, dispatcher, print } = ctx;
        if (opts.digest && ids.length !== 1) throw new CliError('--digest applies to exactly one id.', 2);
        requireServers(await dispatcher.call('hooks.list', target(engine, dir, { mustExist: true })), ids);
        const changes = await approveFromCli(ctx, dir, ids, opts, 'mcp');
        print({ changes }, () => describeChanges(changes, 'approved'));
      }),
    );

  withGlobalOptions(mcp.command('revoke <dir> <ids...>').description('remove the approval of MCP servers')).action((dir: string, ids: string[], opts: GlobalOptions) =>
    runWithEngine(opts, async ({ engine, dispatcher, print }) => {
      const t = target(engine, dir, { mustExist: true });
      requireServers(await dispatcher.call('hooks.list', t), ids);
      const { changes } = await dispatcher.call('hooks.revoke', { ...t, ids, via: 'cli' });
      print({ changes }, () => describeChanges(changes, 'revoked'));
    }),
  );
}

/** Server ids may also be given by name; hook ids are refused here (use `atrium hooks`). */
function requireServers(listing: HookListing, ids: string[]): void {
  for (let i = 0; i < ids.length; i++) {
    const byName = listing.mcpServers.filter((s) => s.name === ids[i]);
    if (byName.length === 1) ids[i] = byName[0].id;
    else if (byName.length > 1) throw new CliError(`Several MCP servers are named "${ids[i]}" (${byName.map((s) => `${s.id} in ${s.source.file}`).join(', ')}); give the id.`, 2);
    if (listing.hooks.some((h) => h.id === ids[i])) throw new CliError(`${ids[i]} is a hook; use "atrium hooks approve|revoke".`, 2);
  }
}
