import type { Command } from 'commander';
import type { AgentSummary } from '../../../shared/contract';
import { AtriumError } from '../../../shared/errors';
import type { AgentRegistry } from '../../core/sessions/agentRegistry';
import { CliError, runWithEngine, withGlobalOptions, type GlobalOptions } from '../context';

/** `atrium agents list|install|define|remove`: the agents Atrium can launch. */
export function registerAgentsCommands(program: Command): void {
  const agents = program.command('agents').description('list and install ACP agents');

  withGlobalOptions(agents.command('list').description('agent presets and user-defined agents with install state and pinned version')).action((opts: GlobalOptions) =>
    runWithEngine(opts, async ({ dispatcher, print }) => {
      const { agents: list } = await dispatcher.call('agents.list', {});
      print({ agents: list }, () => list.map(describeAgent).join('\n'));
    }),
  );

  withGlobalOptions(agents.command('install <id>').description('install an npm agent preset (pinned version) into the data directory')).action((id: string, opts: GlobalOptions) =>
    runWithEngine(opts, async ({ engine, dispatcher, json, print }) => {
      const off = engine.bus.subscribe((event, payload) => {
        if (event !== 'agentInstallProgress') return;
        if (json) process.stdout.write(`${JSON.stringify({ event, ...payload })}\n`);
        else process.stderr.write(`${(payload as { message: string }).message}\n`);
      });
      try {
        const { agent } = await dispatcher.call('agents.install', { id });
        print({ agent }, () => `Installed: ${describeAgent(agent)}`);
      } finally {
        off();
      }
    }),
  );

  withGlobalOptions(agents.command('define <id> <command> [args...]').description('define (or replace) an agent that runs COMMAND ARGS (no shell)'))
    .option('--name <name>', 'display name')
    .option('--env <NAME=VALUE...>', 'extra environment variables for the agent')
    .action((id: string, command: string, args: string[], opts: GlobalOptions & { name?: string; env?: string[] }) =>
      runWithEngine(opts, async ({ dispatcher, print }) => {
        const env = Object.fromEntries(
          (opts.env ?? []).map((kv) => {
            const eq = kv.indexOf('=');
            if (eq < 1) throw new CliError(`--env takes NAME=VALUE, not "${kv}".`, 2);
            return [kv.slice(0, eq), kv.slice(eq + 1)];
          }),
        );
        const { agent } = await dispatcher.call('agents.define', { id, name: opts.name, command, args, env });
        print({ agent }, () => `Defined: ${describeAgent(agent)}`);
      }),
    );

  withGlobalOptions(agents.command('remove <id>').description('remove a user-defined agent')).action((id: string, opts: GlobalOptions) =>
    runWithEngine(opts, async ({ engine, dispatcher, print }) => {
      const { removed } = await dispatcher.call('agents.remove', { id });
      if (!removed) throw notRemovable(engine.sessions.agents, id);
      print({ removed }, () => `Removed agent ${id}`);
    }),
  );
}

/**
 * Why `agents remove ID` removed nothing (exit 1, code AGENT_NOT_FOUND): a built-in preset cannot be
 * removed (it is data shipped with Atrium, launched only when chosen), any other id names no agent the
 * user defined; the message lists the ids that can be removed.
 */
function notRemovable(agents: AgentRegistry, id: string): AtriumError {
  const preset = agents.preset(id);
  if (preset) {
    return new AtriumError(
      'AGENT_NOT_FOUND',
      `"${id}" is a built-in preset (${preset.name}); presets cannot be removed, only agents you defined with "atrium agents define". It is launched only when a session picks it, so there is nothing to remove.`,
    );
  }
  const own = agents.list().filter((a) => !agents.preset(a.id)).map((a) => a.id);
  return new AtriumError('AGENT_NOT_FOUND', `No user-defined agent "${id}". ${own.length > 0 ? `Yours: ${own.join(', ')}.` : 'You have defined none.'} See: atrium agents list`);
}

/**
 * One line per agent: `id  name  version  state  command`, then `! approvals not enforced` for an
 * agent Atrium does not isolate (`atrium session new … --agent ID` prints why). The state says what
 * launching would do now: `installed (data-dir|path|command)`, `not installed (atrium agents install
 * ID)` for a preset neither installed nor on PATH (launching it fails until then), `installing`, or
 * `not found on PATH` for a user command that does not resolve (the wire states are
 * `installed|available|installing|unavailable`; `--json` prints those).
 */
export function describeAgent(a: AgentSummary): string {
  return `${a.id.padEnd(10)} ${a.name.padEnd(14)} ${(a.version ?? '-').padEnd(9)} ${installStateText(a).padEnd(22)} ${[a.command, ...a.args].join(' ')}${a.isolated ? '' : '  ! approvals not enforced'}`;
}

function installStateText(a: AgentSummary): string {
  switch (a.install.state) {
    case 'installed':
      return `installed (${a.install.source})`;
    case 'available':
      return `not installed (atrium agents install ${a.id})`;
    case 'unavailable':
      return 'not found on PATH';
    default:
      return a.install.state;
  }
}
