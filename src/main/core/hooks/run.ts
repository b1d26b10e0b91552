import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HookEvent, HookResult, HookRunOutcome, HookSkipReason } from '../../../shared/contract';
import { canonicalJson, digestOf } from '../formats/canonicalJson';
import { matchedValue, TOOL_EVENTS } from './events';
import { postHook } from './http';
import type { HookEntry } from './listing';
import { bladeMatcherMatches, claudeMatcherMatches, ifRuleMatches, parseClaudeMatcher, parsePermissionRule, type ToolCallContext } from './matchers';
import { reservedHookEnvNames } from './danger';
import { combine, interpret, type Interpreted } from './results';
import { runCommand } from './runCommand';
import { coverScripts, digestScripts, type CoveredScripts, type ScriptContext } from './scripts';
import { shellQuote } from '../formats/shell/quote';
import { bashParser } from '../formats/shell/grammar';
import type { Parser } from 'web-tree-sitter';

/** Where and for whom hooks run. */
export interface RunContext {
  /** The execution directory (`$CLAUDE_PROJECT_DIR`, the workspace folder). */
  path: string;
  homeDir: string;
  sessionId?: string;
  /** Cancels running handlers (their process trees are killed; a string `reason` is reported as `interrupted: <reason>`). */
  signal?: AbortSignal;
  /** Hosts http hooks may reach despite the address policy. */
  allowedHosts: readonly string[];
}

/** One handler's result with the internals needed to record it. */
export interface RanHandler {
  entry: HookEntry;
  result: HookResult;
}

/** An `async: true` command handler started in the background (not awaited by the event). */
export interface BackgroundHandler {
  entry: HookEntry;
  /** Its real result once it finished (re-hashed and run exactly like an awaited handler). */
  done: Promise<RanHandler>;
}

/** Most handlers of one event that run at the same time (awaited ones; background ones have their own budget of the same size). */
export const MAX_CONCURRENT_HANDLERS = 8;

/** The message of an async handler's result at the time the event is decided. */
export const ASYNC_MESSAGE = 'async: started in the background; not awaited, and its result decides nothing';

/**
 * True when a hook's matcher (and `if`) select this call (formats.md §2.5 for Claude, Codex, Gemini
 * and plugin hooks; seed-behaviour §9.3 Blade object matchers for Blade hooks). A hook with `if`
 * never runs on a non-tool event. `shellParser` reads the command of a `Bash(...)` `if`; without
 * one such a rule matches every Bash call (see {@link ifRuleMatches}).
 */
export function hookMatches(entry: HookEntry, event: HookEvent, input: Record<string, unknown>, ctx: { path: string; homeDir: string; shellParser?: Parser | null }): boolean {
  const call: ToolCallContext = {
    toolName: typeof input.tool_name === 'string' ? input.tool_name : undefined,
    toolInput: typeof input.tool_input === 'object' && input.tool_input !== null && !Array.isArray(input.tool_input) ? (input.tool_input as Record<string, unknown>) : {},
    projectDir: ctx.path,
    homeDir: ctx.homeDir,
    shellParser: ctx.shellParser,
  };
  if (entry.format === 'blade') return !TOOL_EVENTS.has(event) || bladeMatcherMatches(entry.matcherRaw, call);
  const matcher = parseClaudeMatcher(typeof entry.matcherRaw === 'string' ? entry.matcherRaw : undefined);
  if (!claudeMatcherMatches(matcher, matchedValue(event, input))) return false;
  if (entry.fields.if === undefined) return true;
  if (!TOOL_EVENTS.has(event)) return false;
  const rule = parsePermissionRule(entry.fields.if);
  return rule !== null && ifRuleMatches(rule, call);
}

/**
 * Runs one event's matching hooks: only `approved` handlers run; others are
 * reported as skipped (`unapproved`, `modified`, `invalid`, `disabled`), prompt/agent/mcp_tool
 * handlers return a visible non-blocking "not supported yet". Command handlers have their scripts
 * re-hashed immediately before running: a digest that no longer equals the approved one means the
 * handler does not run and is reported `modified`. Claude/Codex/Gemini/plugin handlers run in
 * parallel, at most {@link MAX_CONCURRENT_HANDLERS} at once (started in declaration order; the
 * results are listed in declaration order); Blade handlers run in order (seed-behaviour §9.4), each PreToolUse one seeing the
 * previous one's `updatedInput`, stopping at the first deny/ask/block. Identical Claude handlers
 * from several settings files run once. Command handlers with `async: true` (Claude Code
 * semantics, formats.md §2.5) start in the background: they are not awaited, their output is
 * ignored for the decision, and the outcome lists them with {@link ASYNC_MESSAGE}; `background`
 * resolves with their real results. Never throws.
 */
export async function runMatching(
  entries: readonly HookEntry[],
  event: HookEvent,
  input: Record<string, unknown>,
  ctx: RunContext,
): Promise<{ outcome: HookRunOutcome; ran: RanHandler[]; becameModified: string[]; background: BackgroundHandler[] }> {
  // the bash grammar loads once per process, and only when an `if` may have to read a command
  const needsShell = input.tool_name === 'Bash' && entries.some((e) => e.hook.runsOn === event && e.fields.if !== undefined);
  const shellParser = needsShell ? await bashParser().catch(() => null) : null;
  const matching = entries.filter((e) => e.hook.runsOn === event && hookMatches(e, event, input, { ...ctx, shellParser }));
  const becameModified: string[] = [];
  const ran: RanHandler[] = [];
  const interpreted = new Map<HookEntry, Interpreted>();
  const seen = new Map<string, HookEntry>();
  const runnable: HookEntry[] = [];
  for (const e of matching) {
    const skip = skipReason(e);
    if (skip) {
      ran.push({ entry: e, result: skipped(e, skip) });
      continue;
    }
    const dupKey = e.format === 'claude' ? canonicalJson([e.fields.type, e.hook.command, e.fields.url, e.fields.prompt, e.fields.if, e.matcherRaw ?? null]) : null;
    if (dupKey && seen.has(dupKey)) {
      ran.push({ entry: e, result: { ...skipped(e, 'duplicate'), message: `identical to ${seen.get(dupKey)!.hook.id} from ${seen.get(dupKey)!.src.file}; it ran once` } });
      continue;
    }
    if (dupKey) seen.set(dupKey, e);
    runnable.push(e);
  }
  const execute = async (e: HookEntry, handlerInput: Record<string, unknown>): Promise<void> => {
    const r = await runOne(e, event, handlerInput, ctx);
    if (r.skipped === 'modified') becameModified.push(e.hook.id);
    ran.push({ entry: e, result: r });
    if (r.skipped) return;
    // an http answer reads like a command: a 2xx body like exit 0 stdout, anything else (or no answer) as a non-blocking error
    const httpOk = r.exitCode !== null && r.exitCode >= 200 && r.exitCode < 300;
    const exitCode = e.fields.type === 'http' ? (r.timedOut ? null : httpOk ? 0 : 1) : r.exitCode;
    interpreted.set(e, interpret(event, e.format, { exitCode, timedOut: r.timedOut, stdout: e.fields.type === 'http' && !httpOk ? '' : r.stdout, stderr: r.stderr }));
  };
  // at most MAX_CONCURRENT_HANDLERS processes or requests at once, started in declaration order
  const slots = limiter(MAX_CONCURRENT_HANDLERS);
  const backgroundSlots = limiter(MAX_CONCURRENT_HANDLERS);
  const isAsync = (e: HookEntry) => e.fields.async === true && e.fields.type === 'command';
  const background: BackgroundHandler[] = runnable.filter(isAsync).map((e) => {
    ran.push({ entry: e, result: { id: e.hook.id, digest: e.hook.digest, exitCode: null, durationMs: 0, timedOut: false, decision: 'none', reason: null, stdout: '', stderr: '', truncated: false, skipped: null, message: ASYNC_MESSAGE } });
    return { entry: e, done: backgroundSlots(() => runOne(e, event, input, ctx)).then((result) => ({ entry: e, result })) };
  });
  const parallel = runnable.filter((e) => !isAsync(e) && e.format !== 'blade');
  const sequential = runnable.filter((e) => !isAsync(e) && e.format === 'blade');
  await Promise.all([
    Promise.all(parallel.map((e) => slots(() => execute(e, input)))),
    (async () => {
      let current = input;
      for (const e of sequential) {
        await execute(e, current);
        const i = interpreted.get(e);
        if (!i) continue;
        if (i.updatedInput && event === 'PreToolUse') current = { ...current, tool_input: { ...(current.tool_input as Record<string, unknown> | undefined), ...i.updatedInput } };
        if (i.decision === 'deny' || i.decision === 'ask' || i.decision === 'block' || i.decision === 'stop') break;
      }
    })(),
  ]);
  for (const r of ran) {
    const i = interpreted.get(r.entry);
    if (!i) continue;
    r.result.decision = i.decision;
    r.result.reason = i.reason;
    r.result.message = r.result.message ?? i.message;
  }
  const order = new Map(matching.map((e, n) => [e, n]));
  ran.sort((a, b) => order.get(a.entry)! - order.get(b.entry)!);
  const combined = combine(ran.map((r) => interpreted.get(r.entry)).filter((i): i is Interpreted => Boolean(i)));
  return { outcome: { event, ...combined, results: ran.map((r) => r.result) }, ran, becameModified, background };
}

/** Runs the functions it is given with at most `max` of them pending at once, first come first served. */
function limiter(max: number): <T>(job: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: Array<() => void> = [];
  const release = () => {
    active--;
    queue.shift()?.();
  };
  return (job) =>
    new Promise((resolve, reject) => {
      const start = () => {
        active++;
        job().then(resolve, reject).finally(release);
      };
      if (active < max) start();
      else queue.push(start);
    });
}

function skipReason(e: HookEntry): HookSkipReason | null {
  if (e.hook.heldBack) return 'restricted';
  if (e.hook.state === 'approved') return e.hook.supported ? null : 'unsupported';
  return e.hook.state === 'modified' || e.hook.state === 'unapproved' || e.hook.state === 'invalid' || e.hook.state === 'disabled' ? e.hook.state : 'unapproved';
}

function skipped(e: HookEntry, reason: HookSkipReason): HookResult {
  const message: Record<HookSkipReason, string> = {
    unapproved: 'not approved: review and approve it in Atrium to let it run',
    modified: 'changed since it was approved: review the difference and approve it again',
    invalid: 'invalid: see its warnings',
    disabled: `disabled: ${e.disabledBy ?? 'switched off'}`,
    unsupported: `not supported yet: Atrium does not run ${e.fields.type} hooks yet (nothing was sent)`,
    restricted: 'the folder is in restricted mode: project hooks do not run',
    duplicate: 'identical handler ran once',
  };
  return { id: e.hook.id, digest: e.hook.digest, exitCode: null, durationMs: 0, timedOut: false, decision: 'none', reason: null, stdout: '', stderr: '', truncated: false, skipped: reason, message: message[reason] };
}

async function runOne(e: HookEntry, event: HookEvent, input: Record<string, unknown>, ctx: RunContext): Promise<HookResult> {
  const body = JSON.stringify({ session_id: ctx.sessionId ?? '', cwd: ctx.path, ...input, hook_event_name: e.format === 'gemini' ? e.hook.event : event });
  if (e.fields.type === 'http') {
    const r = await postHook({ url: e.fields.url!, body, headers: (e.fields.headers ?? {}) as Record<string, string>, allowedEnvVars: e.fields.allowedEnvVars ?? [], timeoutMs: e.hook.timeoutMs, allowedHosts: ctx.allowedHosts, signal: ctx.signal });
    const ok = r.status !== null && r.status >= 200 && r.status < 300;
    return {
      id: e.hook.id,
      digest: e.hook.digest,
      exitCode: r.status,
      durationMs: r.durationMs,
      timedOut: r.timedOut,
      decision: 'none',
      reason: null,
      stdout: r.body,
      stderr: '',
      truncated: r.truncated,
      skipped: null,
      // a non-2xx answer is a non-blocking error; a 2xx body is read like command stdout
      message: r.refused ? `refused by the http policy: ${r.refused}` : r.error ? `non-blocking error: ${r.error}` : ok ? null : `non-blocking error: HTTP ${r.status}`,
    };
  }
  // command: copy every covered file into a private folder while hashing it, check the digest, run the copies
  const sctx: ScriptContext = { projectDir: ctx.path, homeDir: ctx.homeDir, pluginRoot: e.src.pluginRoot };
  const env = hookEnv(e, event, ctx);
  const verified = await withVerifiedCopies(e, sctx, async (fresh, dir) => {
    const digest = digestOf({ ...e.hook.definition, scripts: digestScripts(fresh.scripts) });
    if (digest !== e.hook.approval?.digest) return { ...skipped(e, 'modified'), digest, message: 'modified since approval: a file it runs changed (re-hashed before running, from the copy about to run): it did not run' };
    await linkNodeModules(dir, ctx.path);
    const expand = (s: string) => s.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (m, a: string | undefined, b: string | undefined) => env[(a ?? b)!] ?? m);
    const run = rewriteToCopies(e.fields.command!, e.fields.args, fresh);
    return runCommand({
      command: e.fields.args ? expand(run.command) : run.command,
      args: run.args?.map(expand),
      shell: e.fields.shell,
      cwd: ctx.path,
      env,
      input: body,
      timeoutMs: e.hook.timeoutMs,
      signal: ctx.signal,
    });
  });
  if ('skipped' in verified) return verified;
  const r = verified;
  return {
    id: e.hook.id,
    digest: e.hook.digest,
    exitCode: r.exitCode,
    durationMs: r.durationMs,
    timedOut: r.timedOut,
    decision: 'none',
    reason: null,
    stdout: r.stdout,
    stderr: r.stderr,
    truncated: r.truncated,
    skipped: null,
    message: r.spawnError ? `could not start: ${r.spawnError}` : r.timedOut ? `timed out after ${e.hook.timeoutMs / 1000} s; the process tree was killed` : r.aborted ? abortedMessage(ctx.signal) : null,
  };
}

/**
 * The message of a handler whose run was cancelled: `interrupted: <reason>` when the signal was
 * aborted with a reason in words (e.g. Atrium closing before the hook finished), else `cancelled`.
 */
function abortedMessage(signal: AbortSignal | undefined): string {
  return typeof signal?.reason === 'string' && signal.reason ? `interrupted: ${signal.reason}; the process tree was killed` : 'cancelled';
}

/**
 * Runs `fn` with the handler's covered files copied into a fresh private folder (mode 0700 under
 * the OS temp folder), each copy holding exactly the bytes that were hashed from one open
 * descriptor; the folder is removed afterwards, whatever happens.
 */
async function withVerifiedCopies<T>(e: HookEntry, sctx: ScriptContext, fn: (fresh: CoveredScripts, dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'atrium-hook-'));
  try {
    await fs.chmod(dir, 0o700);
    return await fn(await coverScripts(e.fields, sctx, dir), dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Lets copied scripts resolve packages as they would in place: `<copies>/ws/node_modules` → the project's node_modules (module resolution is `uncovered` anyway). */
async function linkNodeModules(dir: string, projectDir: string): Promise<void> {
  const ws = path.join(dir, 'ws');
  try {
    if (!(await fs.stat(ws)).isDirectory() || !(await fs.stat(path.join(projectDir, 'node_modules'))).isDirectory()) return;
    await fs.symlink(path.join(projectDir, 'node_modules'), path.join(ws, 'node_modules'), 'dir');
  } catch {
    // no workspace copies or no node_modules: nothing to link
  }
}

/**
 * The command line (or exec-form program and arguments) with every word that names a covered file
 * replaced by its verified copy (quoted for the shell), using the spans the parser reported.
 * Files reached only from inside a `-c` string or a script run from their copies' folder when
 * their script's folder was mirrored; otherwise from their place (their digest is still checked).
 */
export function rewriteToCopies(command: string, args: readonly string[] | undefined, fresh: CoveredScripts): { command: string; args: string[] | undefined } {
  const copyOf = new Map(fresh.scripts.filter((s) => s.copy).map((s) => [s.abs, s.copy!]));
  if (args) {
    const out = { command, args: [...args] };
    for (const r of fresh.rewrites) {
      if (!('arg' in r) || !copyOf.has(r.abs)) continue;
      if (r.arg === -1) out.command = copyOf.get(r.abs)!;
      else out.args[r.arg] = copyOf.get(r.abs)!;
    }
    return out;
  }
  const spans = fresh.rewrites.filter((r): r is { start: number; end: number; abs: string } => 'start' in r && copyOf.has(r.abs)).sort((a, b) => b.start - a.start);
  let out = command;
  let last = Infinity;
  for (const r of spans) {
    if (r.end > last) continue; // overlapping spans: keep the outer one already applied
    out = out.slice(0, r.start) + shellQuote(copyOf.get(r.abs)!) + out.slice(r.end);
    last = r.start;
  }
  return { command: out, args: undefined };
}

/**
 * The environment of a command hook: PATH, HOME (the engine's home), USER, SHELL, LANG,
 * plus `CLAUDE_PROJECT_DIR`, `ATRIUM_SESSION_ID`, `ATRIUM_HOOK_EVENT`, the format's own names
 * (`GEMINI_PROJECT_DIR`; Blade's `BLADE_*`), `CLAUDE_PLUGIN_ROOT` for plugin hooks, and the
 * handler's own approved `env`, which may replace PATH, USER, SHELL, LANG but never a name Atrium
 * sets (`reservedHookEnvNames`: such a hook is invalid and never gets here; the names are skipped
 * anyway and Atrium's values are written last). Nothing else of Atrium's environment is passed.
 */
export function hookEnv(e: HookEntry, event: HookEvent, ctx: RunContext): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ['PATH', 'USER', 'SHELL', 'LANG']) if (process.env[k]) env[k] = process.env[k]!;
  if (process.platform === 'win32') for (const k of ['SystemRoot', 'ComSpec', 'PATHEXT', 'TEMP', 'TMP', 'USERPROFILE']) if (process.env[k]) env[k] = process.env[k]!;
  const own = Object.entries(e.fields.env ?? {}).filter((kv): kv is [string, string] => typeof kv[1] === 'string');
  const reserved = new Set(reservedHookEnvNames(own.map(([k]) => k)));
  for (const [k, v] of own) if (!reserved.has(k)) env[k] = v;
  env.HOME = ctx.homeDir;
  env.CLAUDE_PROJECT_DIR = ctx.path;
  env.ATRIUM_SESSION_ID = ctx.sessionId ?? '';
  env.ATRIUM_HOOK_EVENT = event;
  if (e.format === 'gemini') env.GEMINI_PROJECT_DIR = ctx.path;
  if (e.format === 'blade') Object.assign(env, { BLADE_PROJECT_DIR: ctx.path, BLADE_SESSION_ID: ctx.sessionId ?? '', BLADE_HOOK_EVENT: event });
  if (e.src.pluginRoot) {
    env.CLAUDE_PLUGIN_ROOT = e.src.pluginRoot;
    if (e.src.plugin) env.CLAUDE_PLUGIN_NAME = e.src.plugin;
  }
  return env;
}
