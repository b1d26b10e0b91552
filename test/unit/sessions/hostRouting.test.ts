import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { onHost, routeFor } from '../../../src/main/cli/hostRouting';
import { removeServerInfo, writeServerInfo } from '../../../src/main/cli/remote';
import { createEngine, type Engine } from '../../../src/main/core/engine';
import { startServer, type RunningServer } from '../../../src/main/server/server';
import { AtriumError } from '../../../src/shared/errors';
import { scriptedAgentCommand, testDispatcher, waitFor } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

/**
 * Where a CLI command on a session runs, with two engines on one SQLite file in this process (each
 * engine is its own host, as two processes are): a host that claims the session between the
 * check and the local start gets the command over its server; hosts without a reachable server
 * are refused with where the session lives.
 */

const engines: Engine[] = [];
const servers: RunningServer[] = [];
const dataDirs: string[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const e of engines.splice(0)) await e.close();
  for (const d of dataDirs.splice(0)) removeServerInfo(d);
});

function world() {
  const base = tempDir('atrium-route-');
  const ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  const dataDir = path.join(base, 'data');
  dataDirs.push(dataDir);
  const { command, args } = scriptedAgentCommand(base, { turns: [{ match: 'ask', steps: [{ text: 'answered' }] }] });
  const open = (kind: 'cli' | 'serve' | 'app') => {
    const engine = createEngine({ dataDir, host: { kind }, watchResources: false, sessions: { batchMs: 5, idleMs: 0, envPath: '' } });
    engine.sessions.agents.define({ id: 'scripted', name: 'Scripted', command, args, env: {} });
    engines.push(engine);
    return engine;
  };
  const agentStarts = (engine: Engine, sessionId: string) =>
    (engine.store.db.prepare("SELECT COUNT(*) AS n FROM session_events WHERE session_id = ? AND kind = 'agent_started'").get(sessionId) as { n: number }).n;
  return { ws, dataDir, open, agentStarts };
}

describe('routing a CLI command to the session host', () => {
  it('a server that claims the session between the check and the local start gets the command', async () => {
    const w = world();
    const served = w.open('serve');
    const cli = w.open('cli');
    const server = await startServer({ engine: served, dispatcher: testDispatcher(served), rendererDir: tempDir('atrium-renderer-') });
    servers.push(server);
    writeServerInfo(w.dataDir, { origin: server.origin, token: server.token, pid: process.pid, startedAt: new Date().toISOString() });
    served.sessions.setHostOrigin(server.origin);
    const s = served.sessions.create({ cwd: w.ws, agentId: 'scripted' });
    await waitFor(() => served.sessions.show(s.id).state === 'idle', 'the agent to start');
    await served.sessions.closeSession(s.id);
    // free now: the command would run here
    expect(routeFor(cli, w.dataDir, s.id)).toEqual({ kind: 'local' });

    let ranAtHost = false;
    const result = await onHost(
      cli,
      w.dataDir,
      s.id,
      async () => {
        // meanwhile the server starts the agent again (a browser tab resumed it)
        await served.sessions.resume(s.id);
        return { session: cli.sessions.rename(s.id, 'renamed here') };
      },
      async (client) => {
        ranAtHost = true;
        return client.call('sessions.rename', { sessionId: s.id, title: 'renamed at the host' });
      },
    );
    expect(ranAtHost).toBe(true);
    expect(result.session.title).toBe('renamed at the host');
    expect(served.sessions.show(s.id).title).toBe('renamed at the host');
    expect(routeFor(cli, w.dataDir, s.id)).toMatchObject({ kind: 'remote', host: { kind: 'serve', pid: process.pid, origin: server.origin } });
    // two starts, both the server's (create, resume); the CLI's engine never started one
    expect(w.agentStarts(cli, s.id)).toBe(2);
  }, 60_000);

  it('refuses, saying where the session lives, when the host has no server this CLI may use', async () => {
    const w = world();
    const app = w.open('app');
    const cli = w.open('cli');
    const s = app.sessions.create({ cwd: w.ws, agentId: 'scripted' });
    await waitFor(() => app.sessions.show(s.id).state === 'idle', 'the agent to start');

    // the desktop app without its pickup server
    const refused = routeFor(cli, w.dataDir, s.id);
    expect(refused).toEqual({ kind: 'refuse', message: `Session ${s.id} is running in the desktop app (pid ${process.pid}); continue it there, or turn on pickup from a browser in the app so this terminal can send it commands.` });
    let ranLocally = false;
    const attempt = await onHost(
      cli,
      w.dataDir,
      s.id,
      async () => (ranLocally = true),
      async () => true,
    ).catch((error: unknown) => error);
    expect(ranLocally).toBe(false);
    expect(attempt).toBeInstanceOf(AtriumError);
    expect(attempt).toMatchObject({ code: 'SESSION_HOSTED_ELSEWHERE', message: refused.kind === 'refuse' ? refused.message : '' });

    // a server.json of another process (a stale file, another Atrium) is not the host's server
    writeServerInfo(w.dataDir, { origin: 'http://127.0.0.1:9', token: 'x'.repeat(32), pid: process.pid + 100_000, startedAt: new Date().toISOString() });
    expect(routeFor(cli, w.dataDir, s.id).kind).toBe('refuse');

    // the host's own server, but it does not answer: refused with the reason
    writeServerInfo(w.dataDir, { origin: 'http://127.0.0.1:9', token: 'x'.repeat(32), pid: process.pid, startedAt: new Date().toISOString() });
    const unreachable = await onHost(cli, w.dataDir, s.id, async () => 'local', async () => 'remote').catch((error: unknown) => error);
    expect(unreachable).toMatchObject({ code: 'SESSION_HOSTED_ELSEWHERE', message: expect.stringContaining('does not answer') });
    expect(w.agentStarts(cli, s.id)).toBe(1);
  }, 60_000);
});
