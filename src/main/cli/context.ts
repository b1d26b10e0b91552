import os from 'node:os';
import type { Command } from 'commander';
import { AtriumError, toWireError } from '../../shared/errors';
import { resolveDataDir } from '../core/dataDir';
import type { Dispatcher } from '../core/dispatcher';
import type { Engine } from '../core/engine';
import type { EngineCore } from '../core/engineCore';
import { APP_VERSION } from '../core/version';

/** Where the data directory is when `--data-dir` is absent, in `resolveDataDir`'s order (the CLI has no Electron `userData`). */
export const DATA_DIR_DEFAULTS = '$ATRIUM_DATA_DIR, else $XDG_CONFIG_HOME/atrium, else ~/.config/atrium';

/** Options every subcommand accepts. */
export interface GlobalOptions {
  dataDir?: string;
  json?: boolean;
}

/** Adds `--data-dir` and `--json` to a subcommand (every subcommand takes both). */
export function withGlobalOptions(cmd: Command): Command {
  return cmd
    .option('--data-dir <dir>', `where Atrium keeps its database (default: ${DATA_DIR_DEFAULTS})`)
    .option('--json', 'print machine-readable JSON on stdout');
}

/** A failure the CLI reports on stderr with exit code 1 (2 for usage errors). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

/** What a subcommand's action receives: the engine, a dispatcher and output helpers. */
export interface CliContext {
  engine: Engine;
  dispatcher: Dispatcher;
  json: boolean;
  /** Prints `data` as one JSON line with --json, else the human text. */
  print(data: unknown, human: () => string): void;
}

/** What a command that needs only the engine's core receives (see {@link runWithCore}). */
export interface CliCoreContext {
  core: EngineCore;
  json: boolean;
  /** Prints `data` as one JSON line with --json, else the human text. */
  print(data: unknown, human: () => string): void;
}

/**
 * Opens the engine for one CLI command, runs `fn`, closes the engine. Errors become a message on
 * stderr and exit code 1; the JSON form `{"error":{code,message}}` is printed on stdout with --json.
 * The engine's code is loaded here, on first use, so commands that never open it start fast.
 */
export async function runWithEngine(opts: GlobalOptions, fn: (ctx: CliContext) => Promise<void> | void): Promise<void> {
  return runOpened(
    opts,
    async (dataDir) => {
      const [{ createEngine }, { createDispatcher }] = await Promise.all([import('../core/engine'), import('../core/dispatcher')]);
      const engine = createEngine({ dataDir });
      return { closable: engine, context: { engine, dispatcher: createDispatcher(engine, cliHostHandlers(dataDir)) } };
    },
    fn,
  );
}

/**
 * {@link runWithEngine} for commands that need only the store, the workspace list and folder trust
 * (`openEngineCore`): no session, hook, agent or watcher code is loaded. Same errors, exit codes and
 * Ctrl+C handling.
 */
export async function runWithCore(opts: GlobalOptions, fn: (ctx: CliCoreContext) => Promise<void> | void): Promise<void> {
  return runOpened(
    opts,
    async (dataDir) => {
      const { openEngineCore } = await import('../core/engineCore');
      const core = openEngineCore({ dataDir });
      return { closable: core, context: { core } };
    },
    fn,
  );
}

async function runOpened<C>(
  opts: GlobalOptions,
  open: (dataDir: string) => Promise<{ closable: { close(): Promise<void> }; context: C }>,
  fn: (ctx: C & { json: boolean; print(data: unknown, human: () => string): void }) => Promise<void> | void,
): Promise<void> {
  const json = Boolean(opts.json);
  let engine: { close(): Promise<void> } | null = null;
  // Ctrl+C for the whole command: a command with its own handling (a running turn) acts on it; in
  // the moments between (printing the result, closing the engine, after it) the exit code is 130
  // instead of a default kill mid-write; a command without its own handling stops at once, as before.
  let phase: 'running' | 'closing' | 'closed' = 'running';
  const onSigint = () => {
    process.exitCode = 130;
    if (phase === 'closed' || (phase === 'running' && process.listenerCount('SIGINT') === 1)) process.exit(130);
  };
  process.on('SIGINT', onSigint);
  try {
    const dataDir = resolveDataDir({ flag: opts.dataDir });
    const opened = await open(dataDir);
    engine = opened.closable;
    await fn({
      ...opened.context,
      json,
      print(data, human) {
        process.stdout.write(json ? `${JSON.stringify(data)}\n` : `${human()}\n`);
      },
    });
  } catch (error) {
    reportError(error, json);
  } finally {
    phase = 'closing';
    await closeEngine(engine);
    phase = 'closed';
  }
}

/**
 * Closes the engine (stopping agents can take a moment). Ctrl+C meanwhile makes the exit code 130;
 * a second one exits at once. A failing close is reported in one line, never as a stack trace.
 */
async function closeEngine(engine: { close(): Promise<void> } | null): Promise<void> {
  if (!engine) return;
  let interrupts = 0;
  const onSigint = () => {
    process.exitCode = 130;
    if (++interrupts > 1) process.exit(130);
  };
  process.on('SIGINT', onSigint);
  try {
    await engine.close();
  } catch (error) {
    process.stderr.write(`atrium: closing Atrium's database failed: ${toWireError(error).message}\n`);
    if (!process.exitCode) process.exitCode = 1;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/**
 * Prints an error the CLI way and sets the exit code: a {@link CliError}'s own, 2 for
 * `INVALID_PARAMS` (the request refused a value the command line supplied: a
 * malformed `--digest`, a flag that does not apply to the session named; the wire code is kept),
 * else 1.
 */
export function reportError(error: unknown, json: boolean): void {
  const exitCode = error instanceof CliError ? error.exitCode : error instanceof AtriumError && error.code === 'INVALID_PARAMS' ? 2 : 1;
  const wire = error instanceof CliError ? { code: exitCode === 2 ? 'USAGE' : 'FAILED', message: error.message } : toWireError(error);
  if (json) process.stdout.write(`${JSON.stringify({ error: wire })}\n`);
  process.stderr.write(`atrium: ${wire.message}\n`);
  process.exitCode = exitCode;
}

function cliHostHandlers(dataDir: string) {
  return {
    'app.info': () => ({
      version: APP_VERSION,
      host: 'browser' as const,
      dataDir,
      homeDir: os.homedir(),
      capabilities: { nativeFolderPicker: false },
    }),
    'app.pickFolder': (): never => {
      throw new AtriumError('UNSUPPORTED', 'The folder picker exists only in the desktop app; pass the folder path instead.');
    },
  };
}
