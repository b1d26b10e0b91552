import { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { resolveDataDir } from '../../core/dataDir';
import { APP_VERSION } from '../../core/version';
import { AtriumError } from '../../../shared/errors';
import { CliError, reportError, type GlobalOptions } from '../context';

/** Largest single ACP message accepted from the editor (bytes). */
const MAX_EDITOR_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * `atrium acp --agent ID`: Atrium as an ACP agent on stdio, for an editor that starts it as a
 * custom agent server (Zed's `agent_servers`, JetBrains' `acp.json`). stdout carries only JSON-RPC;
 * everything else (the engine's console output included) goes to stderr. When the editor closes
 * stdin (or sends SIGTERM/SIGINT) the engine stops every agent process tree it started and the
 * process exits 0. Idle shutdown does not apply: the editor decides how long a session stays open. An unknown `--agent` or a bad data directory exits 1 before anything is read; a known agent that is
 * not installed is reported to the editor when it opens a session (with the command that installs it).
 */
export function registerAcpCommand(program: Command): void {
  program
    .command('acp')
    .description('speak ACP on stdio as an agent for an editor, in front of a real agent, with the workspace’s trust, approvals and rules')
    .requiredOption('--agent <id>', 'the agent sessions run (atrium agents list), e.g. claude')
    .option('--data-dir <dir>', 'where Atrium keeps its database')
    .addHelpText('after', '\nEditor set-up (Zed, JetBrains): see "Use Atrium from your editor" in the README.')
    .action(async (opts: GlobalOptions & { agent: string }) => {
      // nothing but JSON-RPC may reach stdout: the engine's own console lines go to stderr
      console.log = console.error;
      console.info = console.error;
      console.debug = console.error;
      try {
        await serve(opts);
      } catch (error) {
        reportError(error, false);
      }
    });
}

async function serve(opts: GlobalOptions & { agent: string }): Promise<void> {
  const dataDir = resolveDataDir({ flag: opts.dataDir });
  const [{ createEngine }, { serveAcp }, acp] = await Promise.all([import('../../core/engine'), import('../../core/acpFront/server'), import('@agentclientprotocol/sdk')]);
  // the editor holds its sessions open: their agents run (and the sessions stay hosted here, read-only
  // elsewhere) until the editor closes them or goes away, not until an idle timer fires
  const engine = createEngine({ dataDir, host: { kind: 'acp' }, sessions: { idleMs: 0 } });
  let closing: Promise<void> | null = null;
  const shutdown = (why: string): Promise<void> => {
    closing ??= (async () => {
      process.stderr.write(`atrium acp: ${why}; stopping the agents it started\n`);
      try {
        await engine.close();
      } catch (error) {
        process.stderr.write(`atrium acp: closing Atrium's database failed: ${String(error)}\n`);
        process.exitCode = 1;
      }
    })();
    return closing;
  };
  try {
    engine.sessions.agents.resolve(opts.agent);
  } catch (error) {
    // a known agent that cannot launch yet (not installed, no Node): the editor is answered, and each
    // session/new or session/load fails with the command that installs it, instead of a dead server
    const code = error instanceof AtriumError ? error.code : null;
    if (code !== 'AGENT_NOT_INSTALLED' && code !== 'NODE_UNAVAILABLE') {
      await engine.close();
      throw new CliError(error instanceof Error ? error.message : String(error));
    }
    process.stderr.write(`atrium acp: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  const stream = acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>, { maxMessageBytes: MAX_EDITOR_MESSAGE_BYTES });
  const connection = serveAcp({ engine, agentId: opts.agent, ...(opts.dataDir ? { dataDir: dataDir } : {}), stream, version: APP_VERSION, log: (message) => process.stderr.write(`atrium acp: ${message}\n`) });
  const onSignal = (signal: NodeJS.Signals) => {
    void shutdown(`received ${signal}`).then(() => process.exit(process.exitCode ?? 0));
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  await connection.closed;
  await shutdown('the editor closed the connection');
  // watchers and pollers of the engine are closed; leave no handle behind
  process.exit(process.exitCode ?? 0);
}
