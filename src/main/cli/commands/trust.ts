import path from 'node:path';
import type { Command } from 'commander';
import type { TrustItemKind, AgentTrustNote, TrustImportSuggestion, TrustReview, TrustState, TrustStatus, TrustWarning } from '../../../shared/contract';
import type { Engine } from '../../core/engine';
import { parentSuggestion } from '../../core/trust/policy';
import { tildify } from '../../core/workspaces/paths';
import { shellArg } from '../shellArg';
import { uncoveredLines } from './hooksOutput';
import { target } from '../workspaceRef';
import { CliError, runWithEngine, withGlobalOptions, type GlobalOptions } from '../context';

/**
 * `atrium trust status|set|clear|list|history|review|import`. Every
 * subcommand takes `--json` (one JSON line on stdout; shapes below) and `--data-dir`.
 * - `status DIR` → `{path, trustRoot, state, decidedBy, inherited, decidedAt, ownDecision, worktreeOf, trustRootDecision, parentSuggestion, trustRefused}`
 *   (a linked worktree: `inherited` true, `ownDecision` null, `worktreeOf` its main checkout)
 * - `set DIR trusted|untrusted [--parent]` → `{decision, change, status}`
 * - `clear DIR [--parent]` → `{removed, change, status}`
 * - `list` → `{decisions}`; `history [DIR]` → `{entries}`
 * - `review DIR` → the review: `{path, trustRoot, state, items: [{kind, path, summary, executable, warnings, ...}], warnings, counts, ...,
 *   agents: [{agentId, name, isolated, whenTrusted}]}` (what trusting lets each agent load by itself)
 * - `import [--from TOOL] [--yes | --accept DIR...]` → `{sources, suggestions, confirmed, recorded, unchanged}`;
 *   without `--yes`/`--accept` nothing is recorded.
 * DIR may also be a workspace id.
 */
export function registerTrustCommands(program: Command): void {
  const trust = program.command('trust').description('folder trust: what repositories may activate (restricted mode until trusted)');

  withGlobalOptions(trust.command('status <dir>').description('show whether a folder is trusted, and which decision applies')).action((dir: string, opts: GlobalOptions) =>
    runWithEngine(opts, async ({ engine, dispatcher, print }) => {
      const { status } = await dispatcher.call('trust.status', target(engine, dir, { mustExist: true }));
      print(status, () => describeStatus(status, engine.trust.home, parentTrust(engine, status)));
    }),
  );

  withGlobalOptions(trust.command('set <dir> <state>').description('record "trusted" or "untrusted" for a folder (its trust root)'))
    .option('--parent', 'decide for the suggested parent folder instead (e.g. ~/src), covering every folder below it')
    .action((dir: string, state: string, opts: GlobalOptions & { parent?: boolean }) =>
      runWithEngine(opts, async ({ engine, dispatcher, print }) => {
        if (state !== 'trusted' && state !== 'untrusted') throw new CliError(`State must be "trusted" or "untrusted", not "${state}".`, 2);
        const result = await dispatcher.call('trust.set', { ...target(engine, dir), state, parent: opts.parent });
        const home = engine.trust.home;
        print({ decision: result.decision, change: result.change, status: result.status }, () =>
          [
            (result.change ? `Recorded: ${tildify(result.decision.path, home)} is ${result.decision.state}.` : `Unchanged: ${tildify(result.decision.path, home)} was already ${result.decision.state}.`) +
              sharedNote(result.status, result.decision.path, home),
            describeStatus(result.status, home, parentTrust(engine, result.status)),
          ].join('\n'),
        );
      }),
    );

  withGlobalOptions(trust.command('clear <dir>').description("remove a folder's own decision so it inherits again"))
    .option('--parent', "clear the suggested parent folder's decision instead")
    .action((dir: string, opts: GlobalOptions & { parent?: boolean }) =>
      runWithEngine(opts, async ({ engine, dispatcher, print }) => {
        const result = await dispatcher.call('trust.clear', { ...target(engine, dir), parent: opts.parent });
        const home = engine.trust.home;
        print(result, () =>
          [
            result.change ? `Cleared the decision for ${tildify(result.change.path, home)}.${sharedNote(result.status, result.change.path, home)}` : 'There was no decision to clear.',
            describeStatus(result.status, home, parentTrust(engine, result.status)),
          ].join('\n'),
        );
      }),
    );

  withGlobalOptions(trust.command('list').description('list every recorded decision')).action((opts: GlobalOptions) =>
    runWithEngine(opts, async ({ engine, dispatcher, print }) => {
      const { decisions } = await dispatcher.call('trust.list', {});
      const home = engine.trust.home;
      print({ decisions }, () =>
        decisions.length
          ? decisions.map((d) => `${d.state.padEnd(9)}  ${tildify(d.path, home)}  (${d.decidedAt}, ${d.source})`).join('\n')
          : 'No trust decisions yet. Every folder is in restricted mode until you trust it: atrium trust review DIR, then atrium trust set DIR trusted (DIR: the folder)',
      );
    }),
  );

  withGlobalOptions(trust.command('history [dir]').description('audit history of trust changes (for DIR: the decisions that govern it)'))
    .option('--limit <n>', 'most entries to show', '100')
    .action((dir: string | undefined, opts: GlobalOptions & { limit: string }) =>
      runWithEngine(opts, async ({ engine, dispatcher, print }) => {
        const limit = Number(opts.limit);
        if (!Number.isInteger(limit) || limit < 1) throw new CliError(`--limit must be a whole number ≥ 1, not "${opts.limit}".`, 2);
        const { entries } = await dispatcher.call('trust.history', { ...(dir ? target(engine, dir) : {}), limit });
        const home = engine.trust.home;
        print({ entries }, () =>
          entries.length
            ? entries.map((e) => `${e.changedAt}  ${tildify(e.path, home)}  ${e.oldState ?? 'none'} → ${e.newState ?? 'none'}  (${e.source})`).join('\n')
            : 'No trust changes recorded.',
        );
      }),
    );

  withGlobalOptions(trust.command('review <dir>').description('list everything trusting the folder would activate (hooks, MCP servers, rules, ...)')).action((dir: string, opts: GlobalOptions) =>
    runWithEngine(opts, async ({ engine, dispatcher, print }) => {
      const { review, agents } = await dispatcher.call('trust.review', target(engine, dir, { mustExist: true }));
      const { TrustItemKind } = await import('../../../shared/contract');
      print({ ...review, agents }, () => [describeReview(review, engine.trust.home, TrustItemKind.options), '', ...agentTrustLines(agents)].join('\n'));
    }),
  );

  withGlobalOptions(trust.command('import').description('suggest decisions stored by Claude Code, Codex or Gemini CLI; records only what you confirm'))
    .option('--from <tool>', 'read only this tool: claude, codex or gemini (default: all three)')
    .option('--yes', 'record every importable suggestion')
    .option('--accept <dir...>', 'record only the suggestions for these folders')
    .action((opts: GlobalOptions & { from?: string; yes?: boolean; accept?: string[] }) =>
      runWithEngine(opts, async ({ engine, dispatcher, print }) => {
        const { TrustImportSource } = await import('../../../shared/contract');
        const from = opts.from === undefined ? undefined : TrustImportSource.safeParse(opts.from);
        if (from && !from.success) throw new CliError(`--from must be claude, codex or gemini, not "${opts.from}".`, 2);
        if (opts.yes && opts.accept) throw new CliError('Give either --yes or --accept, not both.', 2);
        const { sources, suggestions } = await dispatcher.call('trust.importSuggestions', { from: from?.data });
        const chosen = opts.yes ? suggestions.filter((s) => !s.refused && !s.alreadyRecorded) : opts.accept ? pickAccepted(suggestions, opts.accept) : [];
        const confirmed = Boolean(opts.yes || opts.accept);
        let recorded: Awaited<ReturnType<typeof dispatcher.call<'trust.importConfirm'>>>['recorded'] = [];
        let unchanged: string[] = [];
        if (chosen.length > 0) {
          ({ recorded, unchanged } = await dispatcher.call('trust.importConfirm', { decisions: chosen.map((s) => ({ path: s.path, state: s.state, from: s.from })) }));
        }
        const home = engine.trust.home;
        print({ sources, suggestions, confirmed, recorded, unchanged }, () => describeImport(sources, suggestions, confirmed, recorded.length, home));
      }),
    );
}


function pickAccepted(suggestions: TrustImportSuggestion[], accept: string[]): TrustImportSuggestion[] {
  const out: TrustImportSuggestion[] = [];
  for (const raw of accept) {
    const wanted = path.resolve(raw);
    const matches = suggestions.filter((s) => s.path === wanted || s.sourcePath === wanted);
    if (matches.length === 0) throw new CliError(`No import suggestion for ${wanted}. Run "atrium trust import" to see the suggestions.`);
    // a folder the tools disagree about: its untrusted suggestion is importable, the trusted one refused
    const importable = matches.filter((s) => !s.refused);
    if (importable.length === 0) throw new CliError(matches[0].refused!);
    out.push(...importable);
  }
  return out;
}

/**
 * For a change asked for from inside a linked worktree: says that the decision recorded at `decided`
 * is the main checkout's (or a parent's) and shared by every worktree, not the worktree's own.
 */
function sharedNote(s: TrustStatus, decided: string, home: string): string {
  if (!s.worktreeOf) return '';
  const t = (p: string) => tildify(p, home);
  return decided === s.trustRoot
    ? ` ${t(s.path)} is a linked worktree of ${t(s.worktreeOf)}: the decision was recorded for the main checkout and is shared by ${t(s.worktreeOf)} and all its worktrees.`
    : ` ${t(s.path)} is a linked worktree of ${t(s.worktreeOf)}: this parent folder's decision covers ${t(s.worktreeOf)} and all its worktrees.`;
}

/**
 * The effective trust state of the folder's parent (the folder `--parent` would decide for), or null
 * when it has none. Needed where `parentSuggestion` is null because the folder's own decision
 * overrides a trusted parent, so the text can say how to inherit it.
 */
function parentTrust(engine: Engine, s: TrustStatus): TrustState | null {
  const parent = parentSuggestion(s.trustRoot, engine.trust.home);
  return parent ? engine.trust.workspaceTrust(parent).state : null;
}

/**
 * Human text of a trust status. `parentState` is the parent folder's state: trusting the parent is
 * offered only when the status says it would help (see `parentSuggestion`); when the folder's own
 * decision overrides a trusted parent, the text says how to drop that decision instead.
 */
function describeStatus(s: TrustStatus, home: string, parentState: TrustState | null): string {
  const t = (p: string) => tildify(p, home);
  const head = `${t(s.path)}: ${s.state}${s.state === 'trusted' ? '' : ' (restricted mode: project hooks, servers and rules are inactive)'}`;
  const lines = [head];
  if (s.worktreeOf) lines.push(`  a linked worktree of ${t(s.worktreeOf)}: judged at ${t(s.trustRoot)}, whose decision ${t(s.worktreeOf)} and all its worktrees share (it has none of its own)`);
  else if (s.trustRoot !== s.path) lines.push(`  judged by its trust root ${t(s.trustRoot)}`);
  if (s.decidedBy) lines.push(`  ${s.inherited ? 'inherited from' : 'decided for'} ${t(s.decidedBy)} on ${s.decidedAt}`);
  if (s.parentSuggestion) lines.push(`  parent folder that may be trusted: ${t(s.parentSuggestion)} (atrium trust set ${shellArg(s.path)} trusted --parent)`);
  else if (s.state !== 'trusted' && s.decidedBy && parentState === 'trusted') {
    const parent = parentSuggestion(s.trustRoot, home);
    if (parent) lines.push(`  its parent ${t(parent)} is trusted, but the decision for ${t(s.decidedBy)} overrides it (to inherit the parent's: atrium trust clear ${shellArg(s.path)})`);
  }
  if (s.trustRefused) lines.push(`  note: ${s.trustRefused}`);
  return lines.join('\n');
}

/** Singular and plural noun of each review kind, for the counts line ("3 hooks, 1 MCP server"). */
const KIND_NOUN: Record<TrustItemKind, [string, string]> = {
  hook: ['hook', 'hooks'],
  mcpServer: ['MCP server', 'MCP servers'],
  lspServer: ['LSP server', 'LSP servers'],
  command: ['custom command', 'custom commands'],
  setting: ['settings file', 'settings files'],
  env: ['env block', 'env blocks'],
  plugin: ['plugin', 'plugins'],
  skill: ['skill', 'skills'],
  subagent: ['subagent', 'subagents'],
  outputStyle: ['output style', 'output styles'],
  instruction: ['instruction file', 'instruction files'],
};

/** `kinds`: every item kind in the contract's order (`TrustItemKind.options`). */
function describeReview(r: TrustReview, home: string, kinds: readonly TrustItemKind[]): string {
  const lines = [`Trust review of ${tildify(r.path, home)} (trust root ${tildify(r.trustRoot, home)}): ${r.state}`];
  const counts = kinds.filter((k) => r.counts[k] > 0).map((k) => `${r.counts[k]} ${KIND_NOUN[k][r.counts[k] === 1 ? 0 : 1]}`);
  // the executable count spans every kind (hooks, servers, commands...), so it stands apart from the per-kind counts, named as items
  const runCode = `${r.executableCount} ${r.executableCount === 1 ? 'item runs' : 'items run'} code`;
  lines.push(counts.length ? `${counts.join(', ')} · ${runCode}; ${r.fileCount} files looked at in ${r.durationMs} ms` : `Nothing to activate; ${r.fileCount} files looked at.`);
  let section = '';
  for (const item of r.items) {
    const heading = item.executable ? 'Runs code:' : 'Other items:';
    if (heading !== section) {
      lines.push('', heading);
      section = heading;
    }
    lines.push(`  ${item.kind.padEnd(11)} ${item.path}${item.line ? `:${item.line}` : ''}  ${item.summary}`);
    lines.push(...uncoveredLines(item.uncovered, '      '));
    for (const w of item.warnings) lines.push(`      ! ${formatWarning(w)}`);
  }
  if (r.warnings.length) {
    lines.push('', 'Warnings:');
    for (const w of r.warnings) lines.push(`  ! ${w.path}${w.line ? `:${w.line}` : ''} ${formatWarning(w)}`);
  }
  return lines.join('\n');
}

/**
 * The review's per-agent part: what trusting lets each agent load by itself when Atrium launches
 * it; an agent Atrium does not isolate is marked "approvals not enforced".
 */
export function agentTrustLines(agents: AgentTrustNote[]): string[] {
  const lines = ['What each agent loads by itself when Atrium launches it, once the folder is trusted:'];
  for (const a of agents) {
    lines.push(`  ${a.name}${a.isolated ? '' : ' (! approvals not enforced)'}:`);
    for (const w of a.whenTrusted) lines.push(`    - ${w}`);
  }
  return lines;
}

function formatWarning(w: TrustWarning): string {
  return `${w.message}${w.fix ? ` (fix: ${w.fix})` : ''}`;
}

/** Why an import suggestion is refused, in a few words (the full sentence is `s.refused`). */
function refusedLabel(s: TrustImportSuggestion): string {
  if (!s.exists) return 'folder missing';
  if (s.conflict && s.refused === s.conflict) return 'conflict, untrusted wins';
  return 'home or root';
}

function describeImport(
  sources: Array<{ from: string; file: string; found: boolean; warnings: TrustWarning[] }>,
  suggestions: TrustImportSuggestion[],
  confirmed: boolean,
  recorded: number,
  home: string,
): string {
  const lines: string[] = [];
  for (const s of sources) {
    lines.push(`${s.from}: ${s.found ? `read ${tildify(s.file, home)}` : `no ${tildify(s.file, home)}`}`);
    for (const w of s.warnings) lines.push(`  ! ${formatWarning(w)}`);
  }
  if (suggestions.length === 0) {
    lines.push('No decisions to import.');
    return lines.join('\n');
  }
  lines.push('', 'Suggestions:');
  for (const s of suggestions) {
    const note = s.refused ? `  [refused: ${refusedLabel(s)}]` : s.alreadyRecorded ? '  [already recorded]' : s.current.state !== 'undecided' ? `  [now ${s.current.state}]` : '';
    const missing = s.exists || (s.refused && refusedLabel(s) === 'folder missing') ? '' : ' (folder missing)';
    lines.push(`  ${s.state.padEnd(9)}  ${tildify(s.path, home)}  from ${s.from} (${s.sourceValue})${missing}${note}`);
    if (s.conflict) lines.push(`      ! ${s.conflict}`);
  }
  lines.push('', confirmed ? `Recorded ${recorded} decision${recorded === 1 ? '' : 's'}.` : 'Nothing recorded. Confirm with --yes (all) or --accept DIR... (some).');
  return lines.join('\n');
}
