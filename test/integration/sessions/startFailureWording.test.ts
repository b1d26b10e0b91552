import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PayloadOf, TranscriptItem } from '../../../src/shared/contract';
import { createEngine, type Engine } from '../../../src/main/core/engine';
import { approveHooks, commandHook, hookSettings, notices, policyWorlds, promptAndWait } from '../../support/policy';
import { CLAUDE_ENTRY } from '../../support/claude';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';
import { waitFor } from '../../support/sessions';

/**
 * What a failed start, a permission cancelled at shutdown and a modified hook say: how the agent
 * ended and which request it did not answer, the stderr tail once, and notices once per session
 * rather than once per process.
 */

const engines: Engine[] = [];

/** An engine with a user agent that runs `script` (a tiny node program) as its agent process. */
function withAgent(script: string) {
  const base = tempDir('atrium-start-wording-');
  const ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  const file = path.join(base, 'agent.js');
  fs.writeFileSync(file, script);
  const dataDir = path.join(base, 'data');
  const engine = createEngine({ dataDir });
  engines.push(engine);
  engine.sessions.agents.define({ id: 'tiny', name: 'Tiny agent', command: process.execPath, args: [file], env: {} });
  return { engine, ws, file, dataDir };
}

const allItems = (engine: Engine, sessionId: string): TranscriptItem[] => engine.sessions.transcript(sessionId, { limit: 500 }).items;
const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

/** Starts the agent of a new session (resume records a failed start and answers the session) and returns the session afterwards. */
async function failedStart(engine: Engine, ws: string) {
  const s = engine.sessions.create({ cwd: ws, agentId: 'tiny' });
  const summary = await engine.sessions.resume(s.id);
  expect(summary.state).toBe('failed');
  const shown = await waitFor(() => {
    const x = engine.sessions.show(s.id);
    return x.state === 'failed' && x.diagnostics.pid === null ? x : null;
  }, 'the failed start to be recorded');
  return { id: s.id, shown };
}

/** stdin as JSON-RPC lines: answers initialize, then `onSessionNew` runs for session/new. */
const ANSWERS_INITIALIZE = (onSessionNew: string) => `
let buf = '';
process.stdin.on('data', (chunk) => {
  buf += chunk;
  let nl;
  while ((nl = buf.indexOf('\\n')) >= 0) {
    const msg = JSON.parse(buf.slice(0, nl));
    buf = buf.slice(nl + 1);
    if (msg.method === 'initialize') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: 1, agentCapabilities: {} } }) + '\\n');
    else if (msg.method === 'session/new') { ${onSessionNew} }
  }
});
`;

describe('a failed agent start says what happened', () => {
  it('an agent that exits with code 3 before answering initialize: that sentence, the exit in Diagnostics, the stderr tail once', async () => {
    const { engine, ws, file, dataDir } = withAgent("process.stderr.write('boom: no API key configured\\nsee --help\\n');\nprocess.exit(3);\n");
    const { id, shown } = await failedStart(engine, ws);
    const sentence = 'The agent exited with code 3 before answering initialize.';
    expect(shown.lastError).toBe(sentence);
    // Diagnostics: the command that ran and how it ended (not "not started yet / no unexpected exit")
    expect(shown.diagnostics.command).toBe(process.execPath);
    expect(shown.diagnostics.args).toEqual([file]);
    expect(shown.exit).toMatchObject({ code: 3, signal: null });
    expect(shown.diagnostics.stderrTail).toContain('boom: no API key configured');
    const items = allItems(engine, id);
    const errors = items.filter((i) => i.kind === 'notice' && i.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'start_failed', title: sentence, detail: expect.stringContaining('boom: no API key configured') });
    expect(occurrences(JSON.stringify(items), 'boom: no API key configured')).toBe(1);
    expect(JSON.stringify(items)).not.toMatch(/EPIPE|connection closed|exited unexpectedly/);
    // `atrium session show` prints the notice with its stderr tail, and not the tail a second time
    await engine.close();
    const show = runCli(['session', 'show', id, '--data-dir', dataDir]);
    expect(show.status, show.stderr).toBe(0);
    expect(show.stdout).toContain(sentence);
    expect(occurrences(show.stdout, 'boom: no API key configured')).toBe(1);
  }, 60_000);

  it('an agent that answers initialize, then exits with code 0: names session/new, once, without "unexpectedly (exit code 0)"', async () => {
    const { engine, ws } = withAgent(ANSWERS_INITIALIZE("process.stderr.write('Error: not logged in (run login first)\\n'); process.exit(0);"));
    const { id, shown } = await failedStart(engine, ws);
    const sentence = 'The agent exited with code 0 before answering session/new.';
    expect(shown.lastError).toBe(sentence);
    expect(shown.exit).toMatchObject({ code: 0 });
    expect(shown.diagnostics.command).toBe(process.execPath);
    const items = allItems(engine, id);
    expect(items.filter((i) => i.kind === 'notice' && i.severity === 'error').map((i) => (i as { title: string }).title)).toEqual([sentence]);
    expect(occurrences(JSON.stringify(items), 'not logged in')).toBe(1);
    expect(JSON.stringify(items)).not.toContain('exited unexpectedly');
  }, 60_000);

  it('an agent that answers session/new with an error while running keeps the error (it did not exit)', async () => {
    const { engine, ws } = withAgent(ANSWERS_INITIALIZE("process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32000, message: 'Authentication required' } }) + '\\n');"));
    const { shown } = await failedStart(engine, ws);
    expect(shown.lastError).toBe('The agent could not start the session: Authentication required (-32000)');
    // Atrium stopped it after the error: no unexpected exit to show
    expect(shown.exit).toBeNull();
    expect(shown.diagnostics.command).toBe(process.execPath);
  }, 60_000);
});

describe('a failed start of the real Claude adapter', () => {
  it('whose Claude CLI exits 0 at once: one error notice with the reason and the stderr tail once, no "exited unexpectedly"', async () => {
    const { engine, ws } = withAgent('');
    const base = path.dirname(ws);
    const cli = path.join(base, 'claude');
    fs.writeFileSync(cli, '#!/bin/sh\necho "claude: fatal: cannot write the config directory" >&2\nexit 0\n', { mode: 0o755 });
    fs.mkdirSync(path.join(base, 'home'));
    engine.sessions.agents.define({ id: 'tiny', name: 'My Claude', command: process.execPath, args: [CLAUDE_ENTRY], env: { CLAUDE_CODE_EXECUTABLE: cli, HOME: path.join(base, 'home'), ANTHROPIC_API_KEY: 'sk-ant-fake', DISABLE_AUTOUPDATER: '1' } });
    const { id, shown } = await failedStart(engine, ws);
    expect(shown.lastError).toMatch(/^The agent (could not start the session: .+|exited with code \d+ before answering session\/new\.)$/);
    expect(shown.diagnostics.command).toBe(process.execPath);
    const items = allItems(engine, id);
    const errors = items.filter((i) => i.kind === 'notice' && i.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(items)).not.toContain('exited unexpectedly');
    const firstLine = shown.diagnostics.stderrTail.trim().split('\n')[0];
    expect(firstLine.length).toBeGreaterThan(0);
    expect(occurrences(JSON.stringify(items), JSON.stringify(firstLine).slice(1, -1))).toBe(1);
  }, 90_000);
});

afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
});

const worlds = policyWorlds();

describe('answering a request that is no longer pending', () => {
  it('a permission request cancelled when the agent stopped says so, live and after a restart', async () => {
    const world = worlds.create({ turns: [{ match: 'ask', steps: [{ permission: { title: 'Write notes', kind: 'edit' } }] }] });
    let engine = world.open();
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    const asked: Array<PayloadOf<'permissionRequested'>> = [];
    engine.bus.subscribe((event, payload) => {
      if (event === 'permissionRequested') asked.push(payload as PayloadOf<'permissionRequested'>);
    });
    engine.sessions.prompt(s.id, 'ask please');
    await waitFor(() => asked.length === 1, 'the permission request');
    const requestId = asked[0].permission.requestId;
    await engine.sessions.closeSession(s.id);
    const said = /cancelled because the agent stopped/;
    expect(() => engine.sessions.answerPermission(s.id, requestId, 'allow')).toThrow(expect.objectContaining({ code: 'PERMISSION_NOT_FOUND', message: expect.stringMatching(said) }));
    await engine.close();
    engine = world.open();
    expect(() => engine.sessions.answerPermission(s.id, requestId, 'allow')).toThrow(expect.objectContaining({ code: 'PERMISSION_NOT_FOUND', message: expect.stringMatching(said) }));
    expect(() => engine.sessions.answerPermission(s.id, 'never-asked', 'allow')).toThrow(expect.objectContaining({ code: 'PERMISSION_NOT_FOUND', message: expect.stringContaining('No pending permission request "never-asked" in this session') }));
  }, 60_000);
});

describe('"modified since approval" once per session', () => {
  it('is not reported again by the next process that loads the session (each CLI command is one)', async () => {
    const LOG = '#!/bin/sh\ncat > /dev/null\necho prompt >> "$CLAUDE_PROJECT_DIR/prompt-log"\n';
    const world = worlds.create({}, { '.claude/hooks/log.sh': LOG, '.claude/settings.json': hookSettings({ UserPromptSubmit: [{ hooks: [commandHook('sh .claude/hooks/log.sh')] }] }) });
    let engine = world.openTrusted();
    await approveHooks(engine, world.ws, ['log.sh']);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'one')).toBe('end_turn');
    world.write({ '.claude/hooks/log.sh': '#!/bin/sh\ncat > /dev/null\ntouch "$CLAUDE_PROJECT_DIR/tampered"\n' });
    expect(await promptAndWait(engine, s.id, 'two')).toBe('end_turn');
    expect(notices(engine, s.id, 'hooks_skipped')).toHaveLength(1);
    // the next command: another process loads the session and prompts again
    await engine.close();
    engine = world.open();
    expect(await promptAndWait(engine, s.id, 'three')).toBe('end_turn');
    await engine.close();
    engine = world.open();
    expect(await promptAndWait(engine, s.id, 'four')).toBe('end_turn');
    expect(notices(engine, s.id, 'hooks_skipped')).toHaveLength(1);
    expect(fs.existsSync(path.join(world.ws, 'tampered'))).toBe(false);
    // the hook is restored and runs: a later modification is reported again
    world.write({ '.claude/hooks/log.sh': LOG });
    expect(await promptAndWait(engine, s.id, 'five')).toBe('end_turn');
    world.write({ '.claude/hooks/log.sh': '#!/bin/sh\ncat > /dev/null\necho changed-again\n' });
    await engine.close();
    engine = world.open();
    expect(await promptAndWait(engine, s.id, 'six')).toBe('end_turn');
    expect(notices(engine, s.id, 'hooks_skipped')).toHaveLength(2);
  }, 120_000);
});
