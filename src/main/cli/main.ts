import { Command, CommanderError } from 'commander';
import { APP_VERSION } from '../core/version';
import { registerAgentsCommands } from './commands/agents';
import { registerHooksCommands } from './commands/hooks';
import { registerMcpCommands } from './commands/mcp';
import { registerCommandCommand, registerResourcesCommand } from './commands/resources';
import { registerRulesCommands } from './commands/rules';
import { registerServeCommand } from './commands/serve';
import { registerSessionCommands } from './commands/session';
import { registerTrustCommands } from './commands/trust';
import { registerWorkspaceCommands } from './commands/workspace';
import { DATA_DIR_DEFAULTS } from './context';

/**
 * The `atrium` command line. Each capability registers its own subcommand module below.
 * Exit codes: 0 success, 1 failure (message on stderr), 2 bad usage (unknown command or option,
 * missing argument, bad value: commander's errors and a command's own checks alike).
 */
export function buildProgram(): Command {
  const program = new Command('atrium')
    .description('Atrium: control room and trust anchor for AI coding agents')
    .version(APP_VERSION)
    .showHelpAfterError()
    .exitOverride()
    .addHelpText(
      'after',
      [
        '',
        `Data directory: --data-dir DIR, else ${DATA_DIR_DEFAULTS}.`,
        'Exit codes: 0 success, 1 failure (message on stderr), 2 bad usage (unknown command or option, missing argument, bad value).',
      ].join('\n'),
    );
  registerWorkspaceCommands(program);
  registerServeCommand(program);
  registerTrustCommands(program);
  registerRulesCommands(program);
  registerAgentsCommands(program);
  registerSessionCommands(program);
  registerHooksCommands(program);
  registerMcpCommands(program);
  registerResourcesCommand(program);
  registerCommandCommand(program);
  applyExitOverride(program);
  return program;
}

function applyExitOverride(cmd: Command): void {
  cmd.exitOverride();
  for (const sub of cmd.commands) applyExitOverride(sub);
}

/** Runs the CLI with `argv` (without node and script); resolves when the command's action settles. */
export async function runCli(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // help and version exit 0; everything else commander raises is a usage error
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    throw error;
  }
}
