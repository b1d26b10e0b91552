import type { createTwoFilesPatch } from 'diff';
import type { Hook, HookApproval, HookAuditEntry, HookListing, HookRunOutcome, HookRunRecord, HookUncovered, HookVersion, McpServer, SessionHookRun } from '../../../shared/contract';
import { tildify } from '../../core/workspaces/paths';
import { shellArg } from '../shellArg';

const EVENT_ORDER = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure', 'Notification', 'Stop', 'SessionEnd'];

/**
 * Human text of `atrium hooks list`: a header counting hooks and MCP servers separately, each by
 * state, then hooks grouped by event, each with its id, state and literal command.
 */
export function describeListing(l: HookListing, home: string, only: 'all' | 'mcp' = 'all'): string {
  const lines: string[] = [];
  lines.push(`${tildify(l.path, home)} (trust root ${tildify(l.trustRoot, home)}): ${countLine(l.hooks, 'hook', 'hooks')}; ${countLine(l.mcpServers, 'MCP server', 'MCP servers')}`);
  if (l.restricted) lines.push(`Restricted mode: only your own (user-level) hooks are listed. Trust the folder to see its hooks: atrium trust set ${shellArg(l.path)} trusted`);
  if (l.disableAllHooks) lines.push(`disableAllHooks: ${l.disableAllHooks.value} (from ${l.disableAllHooks.file}${l.disableAllHooks.value ? (l.disableAllHooks.scope === 'project' ? "; switches off this repository's hooks, yours keep running" : '; switches off every Claude-format hook') : ''})`);
  for (const w of l.warnings) lines.push(`! ${w.path}${w.line ? `:${w.line}` : ''}: ${w.message}${w.fix ? ` Fix: ${w.fix}` : ''}`);
  if (only === 'all') {
    const events = [...new Set(l.hooks.map((h) => h.event))].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
    for (const event of events) {
      lines.push('', event);
      for (const h of l.hooks.filter((x) => x.event === event)) lines.push(...describeHook(h));
    }
    if (l.hooks.length === 0) lines.push('', 'No hooks. Hooks come from ~/.claude/settings.json, .claude/settings(.local).json, .codex/hooks.json, .gemini/settings.json, .blade/settings(.local).json and plugin hooks/hooks.json files.');
  }
  if (l.mcpServers.length) {
    lines.push('', 'MCP servers');
    for (const s of l.mcpServers) lines.push(...describeServer(s));
  } else if (only === 'mcp') lines.push('', l.restricted ? 'No MCP servers listed (restricted mode).' : 'No MCP servers in this folder.');
  return lines.join('\n');
}

/** "3 hooks (2 approved, 1 modified)": how many items and, of those, how many are in each state (states with none left out). */
function countLine(items: ReadonlyArray<{ state: string }>, one: string, many: string): string {
  const states = ['approved', 'modified', 'unapproved', 'invalid', 'disabled']
    .map((state) => [state, items.filter((i) => i.state === state).length] as const)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`);
  return `${items.length} ${items.length === 1 ? one : many}${states.length ? ` (${states.join(', ')})` : ''}`;
}

function rank(event: string): number {
  const i = EVENT_ORDER.indexOf(event);
  return i === -1 ? 99 : i;
}

function describeHook(h: Hook): string[] {
  const what = h.command ?? h.url ?? h.prompt ?? h.type;
  const out = [`  ${h.id}  ${h.state.padEnd(10)}  ${h.matcher ? `[${h.matcher}] ` : ''}${h.if ? `if ${JSON.stringify(h.if)} ` : ''}${h.type === 'command' ? '' : `${h.type}: `}${what}`];
  const where = `${h.source.scope === 'user' ? '~/' : ''}${h.source.file}${h.line ? `:${h.line}` : ''}`;
  out.push(`      ${where} (${h.source.scope}${h.source.plugin ? `, plugin ${h.source.plugin}` : ''}) · timeout ${h.timeoutMs / 1000} s · ${h.digest.slice(0, 23)}…`);
  for (const s of h.scripts) out.push(`      script ${s.path}${s.outsideWorkspace ? ' (outside the workspace)' : ''} sha256 ${s.sha256.slice(0, 12)}…`);
  out.push(...uncoveredLines(h.uncovered, '      '));
  for (const d of shownDangers(h.danger)) out.push(`      ⚠ ${d.message}`);
  for (const w of h.warnings) out.push(`      ! ${w.message}${w.fix ? ` Fix: ${w.fix}` : ''}`);
  return out;
}

function describeServer(s: McpServer): string[] {
  const what = s.command ? [s.command, ...s.args].join(' ') : (s.url ?? '');
  const out = [`  ${s.id}  ${s.state.padEnd(10)}  ${s.name} (${s.transport}): ${what}`, `      ${s.source.file}${s.line ? `:${s.line}` : ''} · ${s.digest.slice(0, 23)}…`];
  const env = Object.entries(s.env);
  if (env.length) out.push(`      env ${env.map(([k, v]) => `${k}=${v}`).join(' ')}`);
  const headers = Object.entries(s.headers);
  if (headers.length) out.push(`      headers ${headers.map(([k, v]) => `${k}: ${v}`).join('; ')}`);
  out.push(...expansionLines(s));
  for (const sc of s.scripts) out.push(`      script ${sc.path}${sc.outsideWorkspace ? ' (outside the workspace)' : ''} sha256 ${sc.sha256.slice(0, 12)}…`);
  out.push(...uncoveredLines(s.uncovered, '      '));
  for (const d of shownDangers(s.danger)) out.push(`      ⚠ ${d.message}`);
  for (const w of s.warnings) out.push(`      ! ${w.message}`);
  return out;
}

/**
 * The variables a server reads and its expansion from Atrium's environment (secrets masked by the
 * engine): `reads …`, then `expands to …` with changed env/header values, or `withheld from sessions: …`,
 * and `blanked: NAME (why)` for each credential passed empty.
 */
function expansionLines(s: McpServer): string[] {
  if (!s.variables.length) return [];
  const out = [`      reads ${s.variables.map((v) => v.text).join(' ')}`];
  const x = s.expansion;
  if (!x) return out;
  const blocked = [...x.missing.map((m) => `${m} is not set`), ...x.unresolvable.map((u) => `${u.text} cannot be expanded (${u.why})`)];
  if (blocked.length) out.push(`      withheld from sessions: ${blocked.join('; ')}`);
  for (const b of x.blanked) out.push(`      blanked: ${b.name} (${b.why}; passed empty)`);
  out.push(`      expands to ${x.command !== null ? [x.command, ...x.args].join(' ') : (x.url ?? '')}`);
  const env = Object.entries(x.env).filter(([k, v]) => s.env[k] !== v);
  if (env.length) out.push(`      expanded env ${env.map(([k, v]) => `${k}=${v}`).join(' ')}`);
  const headers = Object.entries(x.headers).filter(([k, v]) => s.headers[k] !== v);
  if (headers.length) out.push(`      expanded headers ${headers.map(([k, v]) => `${k}: ${v}`).join('; ')}`);
  return out;
}

/** Human text of approve/revoke results; an approval that acknowledged uncovered parts says so. */
export function describeChanges(changes: readonly HookAuditEntry[], verb: string): string {
  if (changes.length === 0) return `Nothing ${verb}: already up to date.`;
  return changes
    .map((c) => {
      const line = `${c.action === 'approve' ? (c.previousDigest ? 'Re-approved' : 'Approved') : 'Revoked'} ${c.itemId}: ${c.label} (${c.digest.slice(0, 23)}…)`;
      const n = c.acknowledgedUncovered?.length ?? 0;
      return n ? `${line}, acknowledging ${n} part${n === 1 ? '' : 's'} the digest does not cover` : line;
    })
    .join('\n');
}

/** Lines for the user hooks `--all-user` left out because their digest does not cover everything they run (none when empty). */
export function describeLeftUncovered(left: ReadonlyArray<{ id: string; label: string; uncovered: readonly HookUncovered[] }>, dir: string): string[] {
  if (left.length === 0) return [];
  return [
    `Left out ${left.length} hook${left.length === 1 ? '' : 's'} its digest does not fully cover (never approved in bulk):`,
    ...left.flatMap((l) => [`  ${l.id}  ${l.label}`, ...uncoveredLines(l.uncovered, '    ')]),
    `Read each, then approve it by itself: atrium hooks approve ${shellArg(dir)} ID --acknowledge-uncovered`,
  ];
}

/** Human text of `atrium hooks run`. */
export function describeOutcome(o: HookRunOutcome): string {
  const lines = [`${o.event}: decision ${o.decision}${o.reason ? ` (${o.reason})` : ''}${o.continue ? '' : `; stop${o.stopReason ? `: ${o.stopReason}` : ''}`}`];
  if (o.results.length === 0) lines.push('No hook matched.');
  for (const r of o.results) {
    const status = r.skipped ? `skipped (${r.skipped})` : r.timedOut ? 'timed out' : `exit ${r.exitCode ?? '-'}`;
    lines.push(`  ${r.id}  ${status}  ${r.durationMs} ms  ${r.decision}${r.message ? `  ${r.message}` : ''}`);
    if (r.stdout.trim()) lines.push(`    stdout: ${r.stdout.trim().split('\n').slice(0, 5).join('\n            ')}`);
    if (r.stderr.trim()) lines.push(`    stderr: ${r.stderr.trim().split('\n').slice(0, 5).join('\n            ')}`);
  }
  if (o.additionalContext) lines.push(`Context for the agent:\n${o.additionalContext}`);
  for (const m of o.systemMessages) lines.push(`Message: ${m}`);
  return lines.join('\n');
}

/**
 * One line per handler of the hook runs a session's turn owed and a CLI command waited for
 * (Stop, late PostToolUse/Notification, `async` handlers): `[hook] Stop h_… exit 0 312 ms none`,
 * the status, decision and message worded as `atrium hooks run` and `hooks runs` word them, plus
 * what Atrium did with the outcome.
 */
export function describeSessionHookRuns(runs: readonly SessionHookRun[]): string[] {
  return runs.flatMap((run) =>
    run.results.map((r) => {
      const status = r.skipped ? `skipped (${r.skipped})` : r.message?.startsWith('timed out') ? 'timed out' : `exit ${r.exitCode ?? '-'}`;
      const extra = [r.message, run.effect].filter((t): t is string => Boolean(t)).join('; ');
      return `[hook] ${run.event}${run.tool ? ` (${run.tool})` : ''} ${r.id}  ${status}  ${Math.round(r.durationMs)} ms  ${r.decision}${extra ? `  ${extra}` : ''}`;
    }),
  );
}

/** Human text of the run history. */
export function describeRuns(runs: readonly HookRunRecord[]): string {
  if (runs.length === 0) return 'No hook has run here yet.';
  return runs.map((r) => `${r.at}  ${r.event.padEnd(18)} ${r.id}  ${r.skipped ? `skipped (${r.skipped})` : r.timedOut ? 'timed out' : `exit ${r.exitCode ?? '-'}`}  ${r.decision}  ${r.durationMs} ms`).join('\n');
}

/** Human text of the approval history. */
export function describeHistory(entries: readonly HookAuditEntry[], home: string): string {
  if (entries.length === 0) return 'No hook approvals recorded.';
  return entries
    .map((e) => `${e.at}  ${e.action.padEnd(7)}  ${e.itemId}  ${e.label}  (${tildify(e.trustRoot, home)}, ${e.by}${e.acknowledgedUncovered?.length ? `, acknowledged not covered: ${e.acknowledgedUncovered.map((u) => u.text).join(', ')}` : ''})`)
    .join('\n');
}

/**
 * The dangers to print under an item: the `uncovered` ones repeat its `uncovered` entries, which
 * {@link uncoveredLines} already prints as `✗ not covered by the digest` lines.
 */
function shownDangers<D extends { code: string }>(danger: readonly D[]): D[] {
  return danger.filter((d) => d.code !== 'uncovered');
}

/** `not covered by the digest: <text> — <message>` lines, one per entry. */
export function uncoveredLines(uncovered: readonly HookUncovered[], indent: string): string[] {
  return uncovered.map((u) => `${indent}✗ not covered by the digest: ${u.text} — ${u.message}`);
}

/** Largest unified diff printed per file (characters); the rest is cut with a note. */
const MAX_DIFF_CHARS = 64 * 1024;

/**
 * Human text of `atrium hooks diff`: the approval (when, by whom, digest) and the current digest,
 * then what changed as unified diffs (`diff -u` style, `a/` = approved, `b/` = current): the
 * definition, and each script the hook runs, by path (an added or removed script diffs against
 * nothing). A script whose text Atrium has no copy of (not snapshotted, binary, unreadable) is
 * named with both hashes instead.
 */
/** `patch` is the `diff` package's `createTwoFilesPatch` (passed in: the package loads only for `hooks diff`). */
export function describeDiff(d: { approved: HookVersion | null; current: HookVersion; approval: HookApproval | null }, patch: typeof createTwoFilesPatch): string {
  const lines: string[] = [];
  if (!d.approved) {
    lines.push('Never approved.', `Current: ${d.current.digest}`, d.current.definition);
    for (const sc of d.current.scripts) lines.push(`script ${sc.path} sha256 ${sc.sha256}`);
    return lines.join('\n');
  }
  lines.push(`Approved ${d.approval?.approvedAt ?? ''} by ${d.approval?.approvedBy ?? 'unknown'}: ${d.approved.digest}`, `Current: ${d.current.digest}`);
  if (d.approved.digest === d.current.digest) {
    lines.push('', 'Unchanged since it was approved.');
    return lines.join('\n');
  }
  // the definition names each script's sha256, so a changed script shows there too, then as its own diff
  lines.push('', d.approved.definition === d.current.definition ? 'Definition: unchanged.' : unified(patch, 'definition', d.approved.definition, d.current.definition));
  const before = new Map(d.approved.scripts.map((sc) => [sc.path, sc]));
  const after = new Map(d.current.scripts.map((sc) => [sc.path, sc]));
  for (const file of [...new Set([...before.keys(), ...after.keys()])]) {
    const a = before.get(file);
    const b = after.get(file);
    if (a && b && a.sha256 === b.sha256) {
      lines.push(`Script ${file}: unchanged (sha256 ${a.sha256.slice(0, 12)}…).`);
      continue;
    }
    if ((a && a.content === null) || (b && b.content === null)) {
      lines.push(`Script ${file}: changed, sha256 ${a ? a.sha256 : '(none)'} → ${b ? b.sha256 : '(none)'} (${a?.content === null ? 'the approved text was not kept' : 'the current text cannot be shown'}).`);
      continue;
    }
    lines.push('', unified(patch, file, a ? a.content : null, b ? b.content : null));
  }
  return lines.join('\n');
}

function unified(createPatch: typeof createTwoFilesPatch, name: string, before: string | null, after: string | null): string {
  const patch = createPatch(
    before === null ? '/dev/null' : `a/${name}`,
    after === null ? '/dev/null' : `b/${name}`,
    withNewline(before ?? ''),
    withNewline(after ?? ''),
    before === null ? '' : 'approved',
    after === null ? '' : 'current',
  ).replace(/^=+\n/, '');
  return patch.length > MAX_DIFF_CHARS ? `${patch.slice(0, MAX_DIFF_CHARS)}\n… (diff cut at ${MAX_DIFF_CHARS} characters)` : patch.replace(/\n$/, '');
}

function withNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}
