import crypto from 'node:crypto';
import path from 'node:path';
import type { Command } from 'commander';
import { agentBehaviourLines } from '../../../shared/agentBehaviourText';
import type { AgentBehaviour, Session, SessionHookRun, StopReason } from '../../../shared/contract';
import { sessionStateText } from '../../../shared/sessionStateText';
import { sessionTitle } from '../../../shared/sessionTitle';
import { toWireError } from '../../../shared/errors';
import type { Engine } from '../../core/engine';
import { splitCommandLine } from '../../core/sessions/commandLine';
import { CliError, runWithEngine, withGlobalOptions, type CliContext, type GlobalOptions } from '../context';
import type * as HostRouting from '../hostRouting';
import { describeSessionHookRuns } from './hooksOutput';
import { registerPickupCommand } from './pickup';
import { SessionPrinter, type PermissionPolicy } from './sessionOutput';

interface RunOptions extends GlobalOptions {
  onPermission?: string;
}

const POLICIES = ['ask', 'allow-once', 'reject'];

/**
 * `atrium session new|prompt|list|show|rename|resume|close|settings`: ACP sessions, with the runtime hosted in this
 * process for the duration of the command (the agent is stopped when the command ends; the session
 * stays resumable). `prompt`, `resume`, `rename` and `close` on a session another live Atrium
 * hosts go to that host (`atrium serve`, or the desktop app with pickup on, over its WebSocket: no
 * second agent process) or are refused with where the session lives (another terminal, exit 1).
 * With `--json`, every update is printed as one JSON line. `session new` first
 * prints what Atrium enforces for the agent and what it still loads by itself (the new-session
 * dialog's lines: stderr, or a first `{"event":"agentBehaviour","behaviour","lines"}` JSON line).
 */
export function registerSessionCommands(program: Command): void {
  const session = program.command('session').description('start, prompt and inspect agent sessions');

  withGlobalOptions(session.command('new <dir>').description('start a session with an agent in a folder (added as a workspace if needed)'))
    .option('--agent <id>', 'agent id (see: atrium agents list)')
    .option('--agent-command <cmdline>', 'run this command line as the agent instead (defined as a user agent, id from --agent or cmd-<hash>)')
    .option('--prompt <text>', 'first prompt; waits for the turn to end')
    .option('--on-permission <policy>', 'ask | allow-once | reject', 'ask')
    .option('--mode <id>', 'session mode to select')
    .option('--title <title>', 'session title')
    .option('--worktree', 'run in a new git worktree on branch atrium/<title slug>-<first 8 characters of the session id> (atrium/<those 8> without --title; -2, -3… when taken), created from the folder\'s HEAD, stored in <data dir>/worktrees/<session id>')
    .action((dir: string, opts: RunOptions & { agent?: string; agentCommand?: string; prompt?: string; mode?: string; title?: string; worktree?: boolean }) =>
      runWithEngine(opts, async (ctx) => {
        const policy = checkPolicy(opts.onPermission);
        let agentId = opts.agent;
        if (opts.agentCommand) {
          let words: string[];
          try {
            words = splitCommandLine(opts.agentCommand);
          } catch (error) {
            throw new CliError((error as Error).message, 2);
          }
          if (!words.length) throw new CliError('--agent-command is empty.', 2);
          agentId ??= `cmd-${crypto.createHash('sha256').update(opts.agentCommand).digest('hex').slice(0, 8)}`;
          await ctx.dispatcher.call('agents.define', { id: agentId, command: words[0], args: words.slice(1), env: {} });
        }
        if (!agentId) throw new CliError('Give --agent ID (see: atrium agents list) or --agent-command "CMD ARGS".', 2);
        // what Atrium enforces for this agent and what it still loads by itself: the new-session dialog's lines, before launch
        const { behaviour } = await ctx.dispatcher.call('sessions.agentBehaviour', { agentId });
        const behaviourLines = agentBehaviourLines(behaviour);
        if (ctx.json) process.stdout.write(`${JSON.stringify({ event: 'agentBehaviour', behaviour, lines: behaviourLines })}\n`);
        else process.stderr.write(`${behaviourLines.join('\n')}\n`);
        let id: string | null = null;
        const printer = new SessionPrinter(ctx.engine, () => id, ctx.json, policy);
        try {
          const { session: created } = await ctx.dispatcher.call('sessions.new', { cwd: path.resolve(dir), agentId, modeId: opts.mode, title: opts.title, worktree: opts.worktree });
          id = created.id;
          const started = await ctx.dispatcher.call('sessions.resume', { sessionId: created.id });
          if (started.session.state === 'failed') throw new CliError(`The agent could not start: ${started.session.lastError ?? 'unknown error'}`);
          if (!ctx.json) process.stderr.write(`Session ${created.id} (${agentId}) in ${created.cwd}\n`);
          const turn = opts.prompt ? await runTurn(ctx, created.id, opts.prompt) : null;
          finish(ctx, notTakenOver(ctx.engine.sessions.show(created.id)), turn?.stop ?? null, { behaviour, lines: behaviourLines }, turn?.hookRuns);
        } finally {
          printer.close();
        }
      }),
    );

  withGlobalOptions(session.command('prompt <id> <text>').description('send a prompt (resuming the session first) and wait for the turn to end; refused (exit 1) on a paused session'))
    .option('--on-permission <policy>', 'ask | allow-once | reject', 'ask')
    .action((id: string, text: string, opts: RunOptions) =>
      runWithEngine(opts, async (ctx) => {
        const policy = checkPolicy(opts.onPermission);
        // SESSION_NOT_FOUND before anything starts; a paused session starts nothing until the user chooses
        if (ctx.engine.sessions.show(id).state === 'paused') throw new CliError(pausedText(id));
        // a session another live Atrium hosts runs there (never a second agent here), else here
        const { session, stop, hookRuns } = await onHost<{ session: Session; stop: StopReason | 'dropped'; hookRuns?: SessionHookRun[] }>(
          ctx.engine,
          ctx.engine.dataDir,
          id,
          async () => {
            const printer = new SessionPrinter(ctx.engine, () => id, ctx.json, policy);
            try {
              const resumed = await ctx.dispatcher.call('sessions.resume', { sessionId: id });
              if (resumed.session.state === 'paused') throw new CliError(pausedText(id));
              if (resumed.session.state === 'failed') throw new CliError(`The agent could not resume: ${resumed.session.lastError ?? 'unknown error'}`);
              const turn = await runTurn(ctx, id, text);
              return { session: notTakenOver(ctx.engine.sessions.show(id)), stop: turn.stop, hookRuns: turn.hookRuns };
            } finally {
              printer.close();
            }
          },
          (client, server) => promptAtHost(client, server, id, text, ctx.json, policy),
        );
        finish(ctx, session, stop, undefined, hookRuns);
      }),
    );

  withGlobalOptions(session.command('list [dir]').description('sessions, most recent first (only those of the workspace containing DIR)')).action((dir: string | undefined, opts: GlobalOptions) =>
    runWithEngine(opts, async ({ engine, dispatcher, print }) => {
      const { sessions } = await dispatcher.call('sessions.list', dir ? { cwd: path.resolve(dir) } : {});
      print({ sessions }, () => (sessions.length ? sessions.map((s) => describeSession(s, workspaceNames(engine))).join('\n') : 'No sessions yet. Start one with: atrium session new DIR --agent ID'));
    }),
  );

  withGlobalOptions(session.command('show <id>').description('a session: state, agent, resume outcome, diagnostics and transcript'))
    .option('--limit <n>', 'transcript items to show (the last N)', '200')
    .action((id: string, opts: GlobalOptions & { limit: string }) =>
      runWithEngine(opts, async (ctx) => {
        const limit = Number(opts.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new CliError('--limit must be a whole number from 1 to 1000.', 2);
        const { session } = await ctx.dispatcher.call('sessions.show', { sessionId: id });
        const transcript = await ctx.dispatcher.call('sessions.transcript', { sessionId: id, limit });
        if (ctx.json) {
          ctx.print({ session, transcript }, () => '');
          return;
        }
        process.stdout.write(`${describeSession(session, workspaceNames(ctx.engine))}\n`);
        if (session.resume) process.stdout.write(`Resume: ${session.resume.outcome}${session.resume.message ? ` (${session.resume.message})` : ''}\n`);
        if (session.state === 'paused') process.stdout.write(`${session.lastError ?? ''}\n${pausedText(session.id)}\n`);
        else if (session.lastError) process.stdout.write(`Last error: ${session.lastError}\n`);
        if (transcript.hasBefore) process.stdout.write(`… ${transcript.items[0]?.id ? transcript.items[0].id - 1 : 0} earlier items\n`);
        new SessionPrinter(ctx.engine, () => null, false, 'ask').printItems(transcript.items); // answers nothing: no session id
        // a failed start's notice above already carries the stderr tail: print it once
        const tail = session.diagnostics.stderrTail.trim();
        const shownAbove = transcript.items.some((i) => i.kind === 'notice' && i.detail?.trim() === tail && tail.split('\n').length <= 10);
        if (tail && !shownAbove) process.stdout.write(`--- agent stderr (tail) ---\n${tail.split('\n').slice(-20).join('\n')}\n`);
      }),
    );

  withGlobalOptions(session.command('rename <id> <title>').description('set the session title ("" clears it); your title wins over titles the agent reports')).action((id: string, title: string, opts: GlobalOptions) =>
    runWithEngine(opts, async ({ engine, dispatcher, print }) => {
      const { session: s } = await onHost(
        engine,
        engine.dataDir,
        id,
        () => dispatcher.call('sessions.rename', { sessionId: id, title }),
        (client) => client.call('sessions.rename', { sessionId: id, title }),
      );
      print({ session: s }, () => `Renamed: ${describeSession(s, workspaceNames(engine))}`);
    }),
  );

  withGlobalOptions(session.command('resume <id>').description('start the agent and re-attach (resume, load or new); prints the outcome'))
    .option('--continue-with-current-rules', 'on a session paused because its rules changed: accept the current rules (recorded in the transcript; static rules go again with the next prompt), then resume')
    .option('--new', 'on a session paused because its rules changed: start a new session with the same agent, folder, mode and title and the current rules; prints its id (the old session stays paused)')
    .addHelpText(
      'after',
      [
        '',
        'A session whose rule files changed since it was created does not resume (fail closed): it is',
        '"paused: rules changed", `session show` lists the changed files, and `session prompt` refuses it. Choose:',
        '  atrium session resume ID --continue-with-current-rules   keep the transcript, go on under the current rules',
        '  atrium session resume ID --new                           a fresh session with the current rules',
        'With --json: {"session"} (--new: {"session": the new one, "previous": the paused one}).',
      ].join('\n'),
    )
    .action((id: string, opts: GlobalOptions & { continueWithCurrentRules?: boolean; new?: boolean }) =>
      runWithEngine(opts, async ({ engine, dispatcher, print }) => {
        if (opts.continueWithCurrentRules && opts.new) throw new CliError('Give either --continue-with-current-rules or --new, not both.', 2);
        if (opts.new) {
          const { session: created } = await dispatcher.call('sessions.resolveRuleMismatch', { sessionId: id, action: 'new', keepPrevious: true });
          // wait for the new session's agent, as `session new` does
          const { session: started } = await dispatcher.call('sessions.resume', { sessionId: created.id });
          const { session: previous } = await dispatcher.call('sessions.show', { sessionId: id });
          print({ session: started, previous: stripDetails(previous) }, () =>
            [`New session ${started.id} (${started.agentId}) in ${started.cwd}, with the current rules.`, describeSession(started, workspaceNames(engine)), `The old session ${id} stays ${sessionStateText(previous)}.`].join('\n'),
          );
          if (started.state === 'failed' || started.state === 'paused') process.exitCode = 1;
          return;
        }
        // a session another live Atrium hosts is resumed there (never a second agent here)
        const { session: s } = opts.continueWithCurrentRules
          ? await onHost(
              engine,
              engine.dataDir,
              id,
              () => dispatcher.call('sessions.resolveRuleMismatch', { sessionId: id, action: 'continue' }),
              (client) => client.call('sessions.resolveRuleMismatch', { sessionId: id, action: 'continue' }),
            )
          : await onHost(
              engine,
              engine.dataDir,
              id,
              () => dispatcher.call('sessions.resume', { sessionId: id }),
              (client) => client.call('sessions.resume', { sessionId: id }),
            );
        print({ session: s }, () =>
          s.state === 'paused'
            ? `${describeSession(s, workspaceNames(engine))}\n${pausedText(s.id)}`
            : `${describeSession(s, workspaceNames(engine))}\nResume: ${s.resume ? `${s.resume.outcome}${s.resume.message ? ` (${s.resume.message})` : ''}` : 'started'}`,
        );
        if (s.state === 'failed' || s.state === 'paused') process.exitCode = 1;
      }),
    );

  registerPickupCommand(session);

  withGlobalOptions(session.command('settings').description('show or change session runtime settings (idle shutdown)'))
    .option('--idle-minutes <n>', 'stop an agent process idle this many minutes (0 = never); the next prompt resumes it')
    .action((opts: GlobalOptions & { idleMinutes?: string }) =>
      runWithEngine(opts, async ({ dispatcher, print }) => {
        let settings;
        if (opts.idleMinutes !== undefined) {
          const n = Number(opts.idleMinutes);
          if (!/^\d+$/.test(opts.idleMinutes.trim()) || n > 24 * 60) throw new CliError(`--idle-minutes must be a whole number of minutes from 0 to 1440, not "${opts.idleMinutes}".`, 2);
          settings = await dispatcher.call('sessions.setSettings', { idleMinutes: n });
        } else {
          settings = await dispatcher.call('sessions.settings', {});
        }
        print(settings, () => `Idle shutdown: ${settings.idleMinutes === 0 ? 'never' : `after ${settings.idleMinutes} min`}`);
      }),
    );

  withGlobalOptions(session.command('close <id>').description('close a session (it can be resumed later)')).action((id: string, opts: GlobalOptions) =>
    runWithEngine(opts, async ({ engine, dispatcher, print }) => {
      const { session: s } = await onHost(
        engine,
        engine.dataDir,
        id,
        () => dispatcher.call('sessions.close', { sessionId: id }),
        (client) => client.call('sessions.close', { sessionId: id }),
      );
      print({ session: s }, () => `Closed: ${describeSession(s, workspaceNames(engine))}`);
    }),
  );
}

/**
 * The session after a turn this process ran, unless another live Atrium took it over meanwhile
 * (the journal then stopped writing and this process stopped its agent): that is a failure of this
 * command, said in words, not a finished turn.
 * @throws CliError (exit 1) naming the process that runs the session now
 */
function notTakenOver<T extends Session>(s: T): T {
  if (s.hostedElsewhere) throw new CliError(`Session ${s.id} was taken over by ${s.hostedElsewhere.description} during the turn; this terminal stopped its agent. Continue it there.`);
  return s;
}

function checkPolicy(value: string | undefined): PermissionPolicy {
  const v = value ?? 'ask';
  if (!POLICIES.includes(v)) throw new CliError(`--on-permission must be one of ${POLICIES.join(', ')}, not "${v}".`, 2);
  return v as PermissionPolicy;
}

/**
 * Queues the prompt and waits for its turn; Ctrl+C cancels the turn (twice: stop waiting). An
 * interrupted command exits with code 130. A cancel that cannot be recorded (the session was taken
 * over by another process, the database refuses writes) is reported in one line, never thrown
 * from the signal handler.
 */
async function runPrompt(ctx: CliContext, sessionId: string, text: string): Promise<StopReason | 'dropped'> {
  const { promptId } = await ctx.dispatcher.call('sessions.prompt', { sessionId, text });
  let interrupts = 0;
  const cancel = () => {
    try {
      ctx.engine.sessions.cancel(sessionId, true);
    } catch (error) {
      process.stderr.write(`atrium: could not cancel the turn: ${toWireError(error).message}\n`);
    }
  };
  const onSigint = () => {
    interrupts++;
    process.exitCode = 130;
    if (interrupts === 1) {
      process.stderr.write('\nCancelling the turn (Ctrl+C again to stop waiting)…\n');
      cancel();
    } else {
      cancel();
      process.exit(130);
    }
  };
  process.on('SIGINT', onSigint);
  try {
    return await ctx.engine.sessions.waitForTurn(sessionId, promptId);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/**
 * Runs one prompt in this process ({@link runPrompt}), then waits for the hooks the turn owes
 * (`WorkspacePolicy.turnHooks`: Stop hooks, which Claude Code runs when the agent has finished
 * responding, PostToolUse and Notification hooks still running, `async` handlers; each bounded by
 * its timeout) and for the follow-up turns a blocking Stop hook queued, so none of them dies with
 * this process. Returns the turn's stop reason and those hook runs.
 */
async function runTurn(ctx: CliContext, sessionId: string, text: string): Promise<{ stop: StopReason | 'dropped'; hookRuns: SessionHookRun[] }> {
  const stop = await runPrompt(ctx, sessionId, text);
  // taken as the turn ends: its Stop hooks have started and record their runs after this
  const mark = ctx.engine.policy.hookRunMark(sessionId);
  const waited = new Set<string>();
  // Ctrl+C while waiting: the hooks still running are killed and recorded as interrupted (a
  // follow-up turn is cancelled), then the command ends with 130; twice: stop waiting at once
  let interrupts = 0;
  const onSigint = () => {
    process.exitCode = 130;
    if (++interrupts > 1) process.exit(130);
    process.stderr.write('\nStopping the hooks of the turn (Ctrl+C again to stop waiting)…\n');
    ctx.engine.policy.interruptHooks(INTERRUPTED_BY_USER);
    try {
      ctx.engine.sessions.cancel(sessionId, true);
    } catch {
      // no turn running (or the session was taken over): nothing to cancel
    }
  };
  process.on('SIGINT', onSigint);
  try {
    for (;;) {
      const { runs, followups } = await ctx.engine.policy.turnHooks(sessionId, mark);
      const next = followups.filter((f) => !waited.has(f));
      if (!next.length || process.exitCode === 130) return { stop, hookRuns: runs };
      for (const promptId of next) {
        waited.add(promptId);
        await ctx.engine.sessions.waitForTurn(sessionId, promptId);
      }
    }
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** Why hooks killed by Ctrl+C while a CLI command waited for them did not finish (their run says `interrupted: <this>`). */
const INTERRUPTED_BY_USER = 'Ctrl+C in the terminal that waited for it';

/**
 * Prints the hook runs the turn owed (one `[hook]` line per handler, see
 * `describeSessionHookRuns`), then the session and the turn's stop reason
 * (`{session, stopReason, hookRuns}`; `hookRuns` only when this process ran the turn; `session
 * new` adds `agentBehaviour: {behaviour, lines}`, what it printed before launch).
 */
function finish(ctx: CliContext, s: Session, stop: StopReason | 'dropped' | null, agentBehaviour?: { behaviour: AgentBehaviour; lines: string[] }, hookRuns?: SessionHookRun[]): void {
  const hookLines = hookRuns ? describeSessionHookRuns(hookRuns) : [];
  ctx.print({ session: s, stopReason: stop, ...(hookRuns ? { hookRuns } : {}), ...(agentBehaviour ? { agentBehaviour } : {}) }, () => `${hookLines.map((l) => `${l}\n`).join('')}${describeSession(s, workspaceNames(ctx.engine))}${stop ? `\nStop: ${stop}` : ''}`);
  if (process.exitCode === 130) return; // interrupted with Ctrl+C: that is the outcome
  if (s.state === 'failed' || s.state === 'paused' || stop === 'error' || stop === 'crashed' || stop === 'dropped') process.exitCode = 1;
}

/** What a paused session means and the two commands that go on from it. */
function pausedText(id: string): string {
  return [
    `Session ${id} is paused: its rules changed since it was created, so it does not continue until you choose (\`atrium session show ${id}\` lists the changes).`,
    `  atrium session resume ${id} --continue-with-current-rules   accept the current rules and resume`,
    `  atrium session resume ${id} --new                           start a new session with the current rules`,
  ].join('\n');
}

/** A Session without the details `sessions.show` adds (permissions, diagnostics). */
function stripDetails(s: Session & { permissions?: unknown; diagnostics?: unknown }): Session {
  const { permissions: _p, diagnostics: _d, ...rest } = s;
  return rest;
}

/**
 * One line per session: `id  state  agent  updated  title  cwd`. The state says in words whether an
 * agent process is attached here ("idle, agent running"; none after idle shutdown, close or a restart),
 * or where another process runs it ("busy, running in atrium serve (pid 123) at http://…"),
 * and why a session is paused ("paused: rules changed"). The title follows the UI's rule
 * ({@link sessionTitle}: "Session in <workspace>" when nobody named it); `workspaceName` maps the
 * session's workspace id to its name (absent or null: the folder name stands in).
 */
export function describeSession(s: Session, workspaceName?: (workspaceId: string) => string | null): string {
  const title = sessionTitle(s, s.workspaceId && workspaceName ? workspaceName(s.workspaceId) : null);
  return `${s.id}  ${sessionStateText(s)}${s.hostedElsewhere ? `, running in ${s.hostedElsewhere.description}` : s.live ? ', agent running' : ''}  ${s.agentId}${s.agentVersion ? `@${s.agentVersion}` : ''}  ${s.updatedAt}  ${title}  ${s.cwd}`;
}

/** Workspace names of this process's engine, for {@link describeSession} (null for a removed workspace). */
export function workspaceNames(engine: Engine): (workspaceId: string) => string | null {
  return (workspaceId) => {
    try {
      return engine.workspaces.get(workspaceId).name;
    } catch {
      return null;
    }
  };
}



/** `onHost` of hostRouting.ts, loaded (with its WebSocket client) only when a session command runs. */
async function onHost<T>(...args: Parameters<typeof HostRouting.onHost<T>>): Promise<T> {
  return (await import('../hostRouting')).onHost<T>(...args);
}

/** `promptAtHost` of hostRouting.ts, loaded on first use (see {@link onHost}). */
async function promptAtHost(...args: Parameters<typeof HostRouting.promptAtHost>): ReturnType<typeof HostRouting.promptAtHost> {
  return (await import('../hostRouting')).promptAtHost(...args);
}
