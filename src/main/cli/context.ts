import os from 'node:os';
import type { Command } from 'commander';
import { AtriumError, toWireError } from '../../shared/errors';
import { resolveDataDir } from '../core/dataDir';
import { createDispatcher, type Dispatcher } from '../core/dispatcher';
import { createEngine, type Engine } from '../core/engine';
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

/**
 * Opens the engine for one CLI command, runs `fn`, closes the engine. Errors become a message on
 * stderr and exit code 1; the JSON form `{"error":{code,message}}` is printed on stdout with --json.
 */
export async function runWithEngine(opts: GlobalOptions, fn: (ctx: CliContext) => Promise<void> | void): Promise<void> {
  const json = Boolean(opts.json);
  let engine: Engine | null = null;
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
    engine = createEngine({ dataDir });
    const dispatcher = createDispatcher(engine, cliHostHandlers(dataDir));
    await fn({
      engine,
      dispatcher,
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
async function closeEngine(engine: Engine | null): Promise<void> {
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
 * `INVALID_PARAMS` (the request refused a value the command line supplied: an empty `--name`, a
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
