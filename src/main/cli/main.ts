import { Command, CommanderError } from 'commander';
import { APP_VERSION } from '../core/version';
import { registerAcpCommand } from './commands/acp';
import { registerAgentsCommands } from './commands/agents';
import { registerHooksCommands } from './commands/hooks';
import { registerMcpCommands } from './commands/mcp';
import { registerProvidersCommands } from './commands/providers';
import { registerCommandCommand, registerResourcesCommand } from './commands/resources';
import { registerRulesCommands } from './commands/rules';
import { registerServeCommand } from './commands/serve';
import { registerSessionCommands } from './commands/session';
import { registerTrustCommands } from './commands/trust';
import { registerWorkspaceCommands } from './commands/workspace';
import { DATA_DIR_DEFAULTS, withGlobalOptions } from './context';

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
    // the program's own options only before the subcommand, so `atrium workspace list --json` stays the subcommand's
    .enablePositionalOptions()
    .addHelpText(
      'after',
      [
        '',
        `Data directory: --data-dir DIR (before or after the subcommand), else ${DATA_DIR_DEFAULTS}.`,
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
  registerAcpCommand(program);
  registerProvidersCommands(program);
  applyExitOverride(program);
  acceptGlobalOptionsEarly(program);
  return program;
}

/**
 * `--data-dir` and `--json` are declared on every subcommand (after its name, as documented), and
 * also on the program and each command group, so `atrium --data-dir D workspace list` and
 * `atrium workspace --json list` work too. The nearest one given wins: a subcommand's own value,
 * else its group's, else the program's.
 */
function acceptGlobalOptionsEarly(program: Command): void {
  const groups = (cmd: Command): Command[] => (cmd.commands.length ? [cmd, ...cmd.commands.flatMap(groups)] : []);
  for (const group of groups(program)) {
    if (group !== program) group.enablePositionalOptions();
    withGlobalOptions(group);
  }
  program.hook('preAction', (_program, action) => {
    for (const key of ['dataDir', 'json'] as const) {
      if (action.getOptionValue(key) !== undefined) continue;
      for (let cmd = action.parent; cmd; cmd = cmd.parent) {
        const value: unknown = cmd.getOptionValue(key);
        if (value !== undefined) {
          action.setOptionValue(key, value);
          break;
        }
      }
    }
  });
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
      // commander wrote its message and help on stderr; a --json caller reads stdout, as for every other error
      if (error.exitCode !== 0 && argv.includes('--json')) {
        process.stdout.write(`${JSON.stringify({ error: { code: 'USAGE', message: error.message.replace(/^error: /, '') } })}\n`);
      }
      return;
    }
    throw error;
  }
}
