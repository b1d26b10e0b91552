import type { Command } from 'commander';
import type { HookEvent } from '../../../shared/contract';
import { HOOK_EVENTS } from '../../../shared/hookEvents';
import { target } from '../workspaceRef';
import { CliError, runWithEngine, withGlobalOptions, type GlobalOptions } from '../context';
import { approveFromCli, explainUnknownIds } from './hooksApprove';
import { describeChanges, describeDiff, describeHistory, describeLeftUncovered, describeListing, describeOutcome, describeRuns } from './hooksOutput';

/**
 * `atrium hooks list|approve|revoke|run|diff|runs|history|allow-host`. DIR is a
 * folder (that exists) or a workspace id; anything else is refused, as `trust status` does. With
 * `--json` (one line on stdout):
 * - `list DIR` → `{path, trustRoot, workspaceId, restricted, disableAllHooks, hooks: [{id, source: {scope, file, plugin, format, absolutePath}, event, matcher, if, type, command, url, args, timeout, timeoutMs, digest, scripts: [{path, sha256, outsideWorkspace, size}], state, approval, danger: [{code, message}], warnings, ...}], mcpServers: [{id, name, digest, state, ...}], warnings, counts, httpAllowedHosts}`
 * - `approve DIR ID... [--digest D] [--acknowledge-uncovered]` / `revoke DIR ID...` → `{changes: [{id, itemId, action, digest, previousDigest, label, at, by, acknowledgedUncovered?}]}`;
 *   an item whose digest does not cover everything it runs (`uncovered` not empty) fails with exit 1
 *   (HOOK_UNCOVERED, nothing approved) unless `--acknowledge-uncovered` is given
 * - `approve DIR --all-user` → `{changes, leftUncovered: [{id, label, digest, uncovered}]}`: never approves uncovered hooks
 * - `run DIR --event E --input JSON` → `{event, decision, reason, continue, stopReason, additionalContext, systemMessages, updatedInput, results: [{id, exitCode, durationMs, decision, stdout, stderr, skipped, ...}]}`
 */
export function registerHooksCommands(program: Command): void {
  const hooks = program.command('hooks').description('hooks by content digest: see every hook literally, approve its exact digest');

  withGlobalOptions(hooks.command('list <dir>').description('list every hook and repository MCP server with its digest and state')).action((dir: string, opts: GlobalOptions) =>
    runWithEngine(opts, async ({ engine, dispatcher, print }) => {
      const listing = await dispatcher.call('hooks.list', target(engine, dir, { mustExist: true }));
      print(listing, () => describeListing(listing, engine.hooks.home));
    }),
  );

  withGlobalOptions(hooks.command('approve <dir> [ids...]').description('approve hooks (or MCP servers) at their current digest'))
    .option('--digest <digest>', 'the digest you reviewed (refused with HOOK_DIGEST_MISMATCH when the hook changed since); one id only')
    .option('--acknowledge-uncovered', 'approve even what the digest does not cover (the "not covered by the digest" lines of "atrium hooks list"), after reading it')
    .option('--all-user', 'approve every one of your own (user-level) hooks, except those the digest does not fully cover')
    .action((dir: string, ids: string[], opts: GlobalOptions & { digest?: string; allUser?: boolean; acknowledgeUncovered?: boolean }) =>
      runWithEngine(opts, async (ctx) => {
        const { engine, dispatcher, print } = ctx;
        if (opts.allUser) {
          if (ids.length || opts.digest) throw new CliError('Give either --all-user or hook ids, not both.', 2);
          if (opts.acknowledgeUncovered) throw new CliError('--acknowledge-uncovered is given for hooks you name one by one; --all-user never approves a hook its digest does not fully cover.', 2);
          const { changes, leftUncovered } = await dispatcher.call('hooks.approveAllUser', { ...target(engine, dir, { mustExist: true }), via: 'cli' });
          print({ changes, leftUncovered }, () => [describeChanges(changes, 'approved'), ...describeLeftUncovered(leftUncovered, dir)].join('\n'));
          return;
        }
        if (ids.length === 0) throw new CliError('Name the hooks to approve (ids from "atrium hooks list DIR"), or pass --all-user.', 2);
        if (opts.digest && ids.length !== 1) throw new CliError('--digest applies to exactly one id.', 2);
        const changes = await explainUnknownIds(ctx, dir, ids, 'approve', () => approveFromCli(ctx, dir, ids, opts, 'hooks'));
        print({ changes }, () => describeChanges(changes, 'approved'));
      }),
    );

  withGlobalOptions(hooks.command('revoke <dir> <ids...>').description('remove the approval of hooks (or MCP servers)')).action((dir: string, ids: string[], opts: GlobalOptions) =>
    runWithEngine(opts, async (ctx) => {
      const { engine, dispatcher, print } = ctx;
      const { changes } = await explainUnknownIds(ctx, dir, ids, 'revoke', () => dispatcher.call('hooks.revoke', { ...target(engine, dir, { mustExist: true }), ids, via: 'cli' }));
      print({ changes }, () => describeChanges(changes, 'revoked'));
    }),
  );

  withGlobalOptions(hooks.command('run <dir>').description('run the approved hooks of an event for an input (what a session would do)'))
    .requiredOption('--event <event>', `one of ${HOOK_EVENTS.join(', ')}`)
    .option('--input <json>', 'the hook input as a JSON object (e.g. {"tool_name":"Bash","tool_input":{"command":"ls"}})', '{}')
    .option('--session <id>', 'session id passed as ATRIUM_SESSION_ID')
    .action((dir: string, opts: GlobalOptions & { event: string; input: string; session?: string }) =>
      runWithEngine(opts, async ({ engine, dispatcher, print }) => {
        if (!(HOOK_EVENTS as readonly string[]).includes(opts.event)) throw new CliError(`--event must be one of ${HOOK_EVENTS.join(', ')}, not "${opts.event}".`, 2);
        let input: unknown;
        try {
          input = JSON.parse(opts.input);
        } catch (error) {
          throw new CliError(`--input is not JSON: ${(error as Error).message}`, 2);
        }
        if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new CliError('--input must be a JSON object.', 2);
        const outcome = await dispatcher.call('hooks.run', { ...target(engine, dir, { mustExist: true }), event: opts.event as HookEvent, input: input as Record<string, unknown>, sessionId: opts.session });
        print(outcome, () => describeOutcome(outcome));
      }),
    );

  withGlobalOptions(hooks.command('diff <dir> <id>').description('the last approved version of a hook next to the current one')).action((dir: string, id: string, opts: GlobalOptions) =>
    runWithEngine(opts, async (ctx) => {
      const { engine, dispatcher, print } = ctx;
      const diff = await explainUnknownIds(ctx, dir, [id], 'diff', () => dispatcher.call('hooks.diff', { ...target(engine, dir, { mustExist: true }), id }));
      const { createTwoFilesPatch } = await import('diff');
      print(diff, () => describeDiff(diff, createTwoFilesPatch));
    }),
  );

  withGlobalOptions(hooks.command('runs <dir>').description('run history, newest first'))
    .option('--id <id>', 'only this hook')
    .option('--limit <n>', 'most entries', '50')
    .action((dir: string, opts: GlobalOptions & { id?: string; limit: string }) =>
      runWithEngine(opts, async ({ engine, dispatcher, print }) => {
        const { runs } = await dispatcher.call('hooks.runs', { ...target(engine, dir, { mustExist: true }), id: opts.id, limit: limitOf(opts.limit) });
        print({ runs }, () => describeRuns(runs));
      }),
    );

  withGlobalOptions(hooks.command('history <dir>').description('approval history (audit), newest first'))
    .option('--limit <n>', 'most entries', '100')
    .action((dir: string, opts: GlobalOptions & { limit: string }) =>
      runWithEngine(opts, async ({ engine, dispatcher, print }) => {
        const { entries } = await dispatcher.call('hooks.history', { ...target(engine, dir, { mustExist: true }), limit: limitOf(opts.limit) });
        print({ entries }, () => describeHistory(entries, engine.hooks.home));
      }),
    );

  withGlobalOptions(hooks.command('allow-host <host>').description('let http hooks reach this host despite the policy (https only, no loopback/private addresses)'))
    .option('--remove', 'remove the host from the list instead')
    .action((host: string, opts: GlobalOptions & { remove?: boolean }) =>
      runWithEngine(opts, async ({ dispatcher, print }) => {
        const { hosts } = await dispatcher.call('hooks.allowHttpHost', { host, allowed: !opts.remove });
        print({ hosts }, () => (hosts.length ? `Allowed hosts: ${hosts.join(', ')}` : 'No hosts allowed beyond the policy.'));
      }),
    );
}


function limitOf(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new CliError(`--limit must be a whole number from 1 to 1000, not "${raw}".`, 2);
  return n;
}
