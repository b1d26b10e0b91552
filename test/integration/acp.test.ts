import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startEditor, stopEditors, type TestEditor } from '../support/acpEditor';
import { runCli } from '../support/cli';
import { repoRoot } from '../support/corpus';
import { approveHooks, commandHook, hookSettings, policyWorlds, type PolicyWorld } from '../support/policy';
import { isAlive, waitFor } from '../support/sessions';

/**
 * `atrium acp` driven the way an editor drives it: the ACP SDK's client side over the stdio of a
 * real `atrium acp` process (from source), in front of the scripted ACP agent. The workspace's
 * trust, rule snapshot and hook approvals apply; the session is an ordinary Atrium session
 * (`atrium session list/show` see it) that survives a kill of the `atrium acp` process.
 */

const worlds = policyWorlds();
afterEach(async () => {
  await stopEditors();
});

const SCENARIO = {
  capabilities: { resume: true, loadSession: true },
  modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] },
  configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }, { value: 'b', name: 'B' }] }],
  onNew: [{ commands: [{ name: 'review', description: 'Review the change' }] }],
  turns: [
    { match: '^ask', steps: [{ permission: { toolCallId: 'edit-1', title: 'Edit notes.txt', kind: 'edit' } }] },
    { match: '^wait', steps: [{ text: 'waiting…' }, { waitForCancel: true }] },
    { match: '^read', steps: [{ read: { path: '{{cwd}}/notes.txt' } }] },
    { match: '^mcp', steps: [{ text: 'mcp: [{{mcp}}]' }] },
    { match: '^run', steps: [{ terminal: { command: 'make', args: ['test'], cwd: '{{cwd}}' } }] },
    { match: '^write', steps: [{ write: { path: '{{cwd}}/written.txt', content: 'from the agent\n' } }] },
  ],
};

const marker = (name: string) => `#!/bin/sh\ntouch "$CLAUDE_PROJECT_DIR/${name}"\n`;

/** A trusted workspace with a static rule, one approved and one unapproved SessionStart hook; `scripted` defined; no engine left open. */
async function trustedWorld(): Promise<PolicyWorld> {
  const world = worlds.create(SCENARIO, {
    'AGENTS.md': 'Root rule: always be kind.\n',
    'notes.txt': 'notes on disk\n',
    '.claude/hooks/approved.sh': marker('approved-ran'),
    '.claude/hooks/unapproved.sh': marker('unapproved-ran'),
    '.claude/settings.json': hookSettings({ SessionStart: [{ hooks: [commandHook('sh .claude/hooks/approved.sh'), commandHook('sh .claude/hooks/unapproved.sh')] }] }),
    '.mcp.json': { mcpServers: { docs: { command: 'node', args: ['docs-server.js'] }, shady: { command: 'node', args: ['shady-server.js'] } } },
  });
  const engine = world.openTrusted();
  await approveHooks(engine, world.ws, ['approved.sh', 'docs']);
  await world.closeAll();
  return world;
}

const envOf = (world: PolicyWorld): NodeJS.ProcessEnv => ({ ...process.env, HOME: world.home });

async function newSession(editor: TestEditor, cwd: string, mcpServers: acp.McpServer[] = []) {
  return editor.conn.agent.request(acp.methods.agent.session.new, { cwd, mcpServers });
}

async function prompt(editor: TestEditor, sessionId: string, text: string) {
  return editor.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
}

/** `atrium ARGS --data-dir <world's>` with the world's HOME. */
const atrium = (world: PolicyWorld, ...args: string[]) => runCli([...args, '--data-dir', world.dataDir], { HOME: world.home });

// each test starts real processes (atrium acp, the agent, CLI commands): generous on a loaded machine
describe('atrium acp in front of the scripted agent', { timeout: 180_000 }, () => {
  it('applies the workspace: rules reach the agent once, only the approved hook runs, the editor is told what is inactive; the session is listed with its transcript', async () => {
    const world = await trustedWorld();
    const editor = startEditor(world.dataDir, 'scripted', envOf(world));
    const init = await editor.initialize();
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({ list: {}, resume: {}, close: {} });

    const created = await newSession(editor, world.ws, [{ name: 'editor-tools', command: '/usr/bin/true', args: [], env: [] }]);
    expect(created.modes?.currentModeId).toBe('ask');
    const id = created.sessionId;

    expect((await prompt(editor, id, 'hello')).stopReason).toBe('end_turn');
    expect((await prompt(editor, id, 'again')).stopReason).toBe('end_turn');
    await waitFor(() => editor.agentText(id).includes('echo: again'), 'the second echo');
    const text = editor.agentText(id);
    // the static rule went with the first prompt only
    expect(text.split('Root rule: always be kind.').length - 1).toBe(1);
    expect(text.indexOf('Root rule')).toBeLessThan(text.indexOf('echo: again'));
    // the first message names the hook that does not run and how to approve it
    expect(text.startsWith('Atrium: 1 hook will not run in this session')).toBe(true);
    expect(text).toContain('unapproved.sh');
    expect(text).toContain(`atrium hooks approve ${world.ws}`);

    expect(fs.existsSync(path.join(world.ws, 'approved-ran'))).toBe(true);
    expect(fs.existsSync(path.join(world.ws, 'unapproved-ran'))).toBe(false);
    // MCP servers: the workspace's approved one and the editor's own; the unapproved one is withheld (and said so)
    expect((await prompt(editor, id, 'mcp list')).stopReason).toBe('end_turn');
    await waitFor(() => editor.agentText(id).includes('mcp: ['), 'the MCP servers the agent got');
    expect(editor.agentText(id)).toContain('mcp: [docs,editor-tools]');
    expect(text).toContain('1 MCP server is withheld: shady');

    // an ordinary Atrium session: listed (hosted by the editor's process) with its transcript
    const list = atrium(world, 'session', 'list');
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain(id);
    const shown = atrium(world, 'session', 'show', id, '--json');
    expect(shown.status, shown.stderr).toBe(0);
    const details = shown.json as { session: { hostedElsewhere: { kind: string; description: string } | null } };
    expect(details.session.hostedElsewhere).toMatchObject({ kind: 'acp', description: expect.stringContaining('an editor (atrium acp') });
    const human = atrium(world, 'session', 'show', id);
    expect(human.stdout).toContain('echo: again');
    // only the editor drives it while it hosts the session
    const refused = atrium(world, 'session', 'prompt', id, 'from a terminal');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('continue it in that editor');
  });

  it('an untrusted (attacker) repository: says what restricted mode leaves out; no project rules, hooks or MCP servers of it reach or run', async () => {
    const world = worlds.create(SCENARIO, {
      'AGENTS.md': 'Root rule: always be kind.\n',
      '.claude/hooks/evil.sh': marker('evil-ran'),
      '.claude/settings.json': hookSettings({ SessionStart: [{ hooks: [commandHook('sh .claude/hooks/evil.sh')] }] }),
      '.mcp.json': { mcpServers: { evil: { command: 'sh', args: ['-c', 'touch evil-mcp-ran'] } } },
    });
    world.open(); // defines `scripted`; the folder stays untrusted
    await world.closeAll();
    const editor = startEditor(world.dataDir, 'scripted', envOf(world));
    await editor.initialize();
    const { sessionId } = await newSession(editor, world.ws);
    expect((await prompt(editor, sessionId, 'hello')).stopReason).toBe('end_turn');
    await waitFor(() => editor.agentText(sessionId).includes('echo:'), 'the echo');
    const text = editor.agentText(sessionId);
    expect(text.indexOf('Atrium: this folder is in restricted mode')).toBe(0);
    expect(text).toContain(`atrium trust set ${world.ws} trusted`);
    expect(text).not.toContain('Root rule');
    // nothing of the repository ran or reached the agent
    expect((await prompt(editor, sessionId, 'mcp list')).stopReason).toBe('end_turn');
    await waitFor(() => editor.agentText(sessionId).includes('mcp: ['), 'the MCP servers the agent got');
    expect(editor.agentText(sessionId)).toContain('mcp: []');
    expect(fs.existsSync(path.join(world.ws, 'evil-ran'))).toBe(false);
    expect(fs.existsSync(path.join(world.ws, 'evil-mcp-ran'))).toBe(false);
    // the workspace was added to Atrium's list
    expect(atrium(world, 'workspace', 'list').stdout).toContain(world.ws);
  });

  it('round-trips a permission request to the editor (recorded as the user’s answer), forwards file reads and terminals to the editor’s own, writes with Atrium’s own when the editor offers none', async () => {
    const world = await trustedWorld();
    const editor = startEditor(world.dataDir, 'scripted', envOf(world), {
      permission: (p) => ({ outcome: { outcome: 'selected', optionId: p.options.find((o) => o.kind === 'reject_once')!.optionId } }),
      readTextFile: () => 'unsaved buffer in the editor\n',
      terminal: { exitCode: 0, output: 'ran in the editor' },
    });
    await editor.initialize();
    const { sessionId } = await newSession(editor, world.ws);

    expect((await prompt(editor, sessionId, 'ask to edit')).stopReason).toBe('end_turn');
    expect(editor.permissions).toEqual([expect.objectContaining({ sessionId, toolCall: expect.objectContaining({ toolCallId: 'edit-1', title: 'Edit notes.txt', kind: 'edit' }) })]);
    await waitFor(() => editor.agentText(sessionId).includes('permission: reject'), 'the agent to report the editor’s answer');

    expect((await prompt(editor, sessionId, 'read notes')).stopReason).toBe('end_turn');
    await waitFor(() => editor.agentText(sessionId).includes('read: unsaved buffer in the editor'), 'the read answered by the editor');
    expect(editor.reads).toEqual([expect.objectContaining({ sessionId, path: path.join(fs.realpathSync(world.ws), 'notes.txt') })]);

    expect((await prompt(editor, sessionId, 'run the tests')).stopReason).toBe('end_turn');
    await waitFor(() => editor.agentText(sessionId).includes('terminal exit=0'), 'the terminal result');
    expect(editor.agentText(sessionId)).toContain('output="ran in the editor"');
    expect(editor.terminals[0]).toMatchObject({ method: 'create', params: { command: 'make' } });
    expect(editor.terminals.map((t) => t.method)).toContain('release');

    // no fs/write_text_file from the editor: Atrium writes (after its own checks)
    expect((await prompt(editor, sessionId, 'write it')).stopReason).toBe('end_turn');
    await waitFor(() => editor.agentText(sessionId).includes('write ok'), 'the write');
    expect(fs.readFileSync(path.join(world.ws, 'written.txt'), 'utf8')).toBe('from the agent\n');

    const shown = atrium(world, 'session', 'show', sessionId, '--json');
    const items = (shown.json as { transcript: { items: Array<{ kind: string; state?: string; optionId?: string; answeredBy?: string }> } }).transcript.items;
    expect(items.find((i) => i.kind === 'permission')).toMatchObject({ state: 'selected', optionId: 'reject', answeredBy: 'user' });
  });

  it('keeps the first-write barrier in front of the editor’s own fs/write_text_file: refused with the rules first, the retry reaches the editor', async () => {
    const world = worlds.create(
      { turns: [{ match: '^write ts', steps: [{ write: { path: '{{cwd}}/src/a.ts', content: '// header\nexport {};\n', retry: 1 } }] }] },
      { '.claude/rules/ts.md': '---\npaths:\n  - "src/**/*.ts"\n---\nTS rule: every file starts with a header comment.\n' },
    );
    world.openTrusted();
    await world.closeAll();
    const editor = startEditor(world.dataDir, 'scripted', envOf(world), { writeTextFile: true });
    await editor.initialize();
    const { sessionId } = await newSession(editor, world.ws);
    expect((await prompt(editor, sessionId, 'write ts')).stopReason).toBe('end_turn');
    await waitFor(() => editor.agentText(sessionId).includes('write ok'), 'the retried write');
    const text = editor.agentText(sessionId);
    expect(text).toContain('write error: Applicable project instructions were loaded before this write');
    expect(text).toContain('TS rule: every file starts with a header comment.');
    expect(text.indexOf('write error')).toBeLessThan(text.indexOf('write ok'));
    // only the retry reached the editor, and Atrium did not write the file itself
    expect(editor.writes).toEqual([expect.objectContaining({ sessionId, path: path.join(fs.realpathSync(world.ws), 'src/a.ts'), content: '// header\nexport {};\n' })]);
    expect(fs.existsSync(path.join(world.ws, 'src/a.ts'))).toBe(false);
  });

  it('cancels a turn mid-way; switches modes and config options the agent offers; forwards its slash commands; closes it', async () => {
    const world = await trustedWorld();
    const editor = startEditor(world.dataDir, 'scripted', envOf(world));
    await editor.initialize();
    const { sessionId, configOptions } = await newSession(editor, world.ws);
    expect(configOptions?.[0]).toMatchObject({ id: 'model', currentValue: 'a' });
    const turn = prompt(editor, sessionId, 'wait for me');
    await waitFor(() => editor.agentText(sessionId).includes('waiting…'), 'the turn to start');
    await editor.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await turn).stopReason).toBe('cancelled');
    // the session goes on
    expect((await prompt(editor, sessionId, 'after')).stopReason).toBe('end_turn');

    // modes are the agent's: one it offers is switched (and recorded), another is refused with a JSON-RPC error
    await editor.conn.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'code' });
    const shown = atrium(world, 'session', 'show', sessionId, '--json');
    expect((shown.json as { session: { modes: { currentModeId: string } } }).session.modes.currentModeId).toBe('code');
    await expect(editor.conn.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'nonsense' })).rejects.toBeInstanceOf(acp.RequestError);

    // the agent's config options (a model choice) and slash commands reach the editor
    const created = editor.updates.get(sessionId) ?? [];
    expect(created.find((u) => u.sessionUpdate === 'available_commands_update')).toMatchObject({ availableCommands: [{ name: 'review' }] });
    const configured = await editor.conn.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: 'model', value: 'b' });
    expect(configured.configOptions[0]).toMatchObject({ id: 'model', currentValue: 'b' });

    // session/close ends it here (closed in Atrium, resumable later); the editor cannot prompt it any more
    await editor.conn.agent.request(acp.methods.agent.session.close, { sessionId });
    await expect(prompt(editor, sessionId, 'more')).rejects.toMatchObject({ code: -32002 });
    const closed = atrium(world, 'session', 'show', sessionId, '--json');
    expect((closed.json as { session: { state: string; hostedElsewhere: unknown } }).session).toMatchObject({ state: 'closed', hostedElsewhere: null });
  });

  it('cancel while the editor is asked for a permission: the turn ends cancelled and the request is recorded as cancelled', async () => {
    const world = await trustedWorld();
    let answer!: (r: acp.RequestPermissionResponse) => void;
    const editor = startEditor(world.dataDir, 'scripted', envOf(world), { permission: () => new Promise((resolve) => (answer = resolve)) });
    await editor.initialize();
    const { sessionId } = await newSession(editor, world.ws);
    const turn = prompt(editor, sessionId, 'ask to edit');
    await waitFor(() => editor.permissions.length === 1, 'the permission request in the editor');
    await editor.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    // ACP: after session/cancel the client answers its pending requests `cancelled`
    answer({ outcome: { outcome: 'cancelled' } });
    expect((await turn).stopReason).toBe('cancelled');
    const shown = atrium(world, 'session', 'show', sessionId, '--json');
    const items = (shown.json as { transcript: { items: Array<{ kind: string; state?: string; answeredBy?: string }> } }).transcript.items;
    expect(items.find((i) => i.kind === 'permission')).toMatchObject({ state: 'cancelled', answeredBy: 'cancel' });
    expect((await prompt(editor, sessionId, 'after')).stopReason).toBe('end_turn');
  });

  it('a SIGKILLed atrium acp leaves a resumable session: session/load from a new one replays it and the agent goes on', async () => {
    const world = await trustedWorld();
    const first = startEditor(world.dataDir, 'scripted', envOf(world));
    await first.initialize();
    const { sessionId } = await newSession(first, world.ws);
    expect((await prompt(first, sessionId, 'remember the number 42')).stopReason).toBe('end_turn');
    first.child.kill('SIGKILL');
    await first.exited;

    const second = startEditor(world.dataDir, 'scripted', envOf(world));
    await second.initialize();
    const listed = await second.conn.agent.request(acp.methods.agent.session.list, { cwd: world.ws });
    expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);
    const loaded = await second.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: world.ws, mcpServers: [] });
    expect(loaded.modes?.currentModeId).toBe('ask');
    // replayed before the answer: the user's prompt and the agent's reply
    const replay = second.updates.get(sessionId) ?? [];
    expect(replay.some((u) => u.sessionUpdate === 'user_message_chunk' && u.content.type === 'text' && u.content.text === 'remember the number 42')).toBe(true);
    expect(second.agentText(sessionId)).toContain('echo:');
    expect((await prompt(second, sessionId, 'what was it')).stopReason).toBe('end_turn');
    await waitFor(() => second.agentText(sessionId).includes('echo: what was it'), 'the resumed agent to answer');
    expect(atrium(world, 'session', 'show', sessionId).stdout).toContain('what was it');
  });

  it('writes the answer to session/new and session/load before any session/update for that session (raw stdio, several sessions)', async () => {
    // untrusted: each session's first update is the restricted-mode notice, sent as the session starts
    const world = worlds.create(SCENARIO, { 'AGENTS.md': 'Root rule.\n' });
    world.open();
    await world.closeAll();
    const editor = rawAcp(world, 'scripted');
    try {
      expect((await editor.request('initialize', { protocolVersion: 1, clientCapabilities: {} })).message.result).toBeDefined();
      const firstUpdateIndex = (sessionId: string, after = -1) => editor.lines.findIndex((l, i) => i > after && l.method === 'session/update' && (l.params as { sessionId?: string }).sessionId === sessionId);
      const ids: string[] = [];
      for (let round = 0; round < 5; round++) {
        const { index, message } = await editor.request('session/new', { cwd: world.ws, mcpServers: [] });
        const sessionId = message.result!.sessionId as string;
        ids.push(sessionId);
        await waitFor(() => firstUpdateIndex(sessionId) >= 0, 'the notice for the new session', 60_000);
        expect(firstUpdateIndex(sessionId)).toBeGreaterThan(index);
      }
      // session/load: the replay comes before the answer (ACP), live updates only after it
      for (const sessionId of ids.slice(0, 2)) {
        const before = editor.lines.length - 1;
        const { index, message } = await editor.request('session/load', { sessionId, cwd: world.ws, mcpServers: [] });
        expect(message.error).toBeUndefined();
        const updates = editor.lines.map((l, i) => ({ l, i })).filter(({ l, i }) => i > before && l.method === 'session/update' && (l.params as { sessionId?: string }).sessionId === sessionId);
        // what the agent says as it restarts (its slash commands, when it sends them) is live, so it follows the answer
        for (const { l, i } of updates) if ((l.params as { update: { sessionUpdate: string } }).update.sessionUpdate === 'available_commands_update') expect(i).toBeGreaterThan(index);
      }
    } finally {
      expect(await editor.close()).toBe(0);
    }
  });

  it('a known agent that is not installed: initialize is answered, session/new and session/load fail with the command that installs it, the server keeps serving', async () => {
    const world = await trustedWorld();
    // npm puts node_modules/.bin (where the dev dependency's claude-agent-acp is) on PATH: not here
    const PATH = (process.env.PATH ?? '').split(path.delimiter).filter((d) => !d.includes('node_modules')).join(path.delimiter);
    const editor = rawAcp(world, 'claude', { ...envOf(world), PATH });
    try {
      const init = await editor.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
      expect(init.message.result?.protocolVersion).toBe(1);
      const created = await editor.request('session/new', { cwd: world.ws, mcpServers: [] });
      expect(created.message.error?.message).toContain('is not installed');
      expect(created.message.error?.message).toContain(`atrium agents install claude --data-dir ${world.dataDir}`);
      expect(created.message.error?.data?.code).toBe('AGENT_NOT_INSTALLED');
      const loaded = await editor.request('session/load', { sessionId: 'whatever', cwd: world.ws, mcpServers: [] });
      expect(loaded.message.error?.message).toContain('atrium agents install claude');
      // nothing was journaled for the refused session
      expect(atrium(world, 'session', 'list').stdout).not.toContain('claude');
      expect(editor.child.exitCode).toBeNull();
    } finally {
      expect(await editor.close()).toBe(0);
    }
  });

  it('answers bad input with JSON-RPC errors and keeps serving; closing stdin ends the agent process tree', async () => {
    const world = await trustedWorld();
    // an agent Atrium does not know: one line on stderr, exit 1, nothing on the ACP stream
    const unknown = atrium(world, 'acp', '--agent', 'nope');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No agent "nope"');
    expect(unknown.stdout).toBe('');

    const editor = startEditor(world.dataDir, 'scripted', envOf(world));
    let raw = '';
    editor.child.stdout!.on('data', (d: Buffer) => (raw += d.toString()));
    await editor.initialize();
    editor.child.stdin!.write('this is not json\n');
    await waitFor(() => raw.includes('-32700'), 'a parse error answer');

    await expect(prompt(editor, 'no-such-session', 'hi')).rejects.toMatchObject({ code: -32002 });
    await expect(newSession(editor, 'relative/folder')).rejects.toBeInstanceOf(acp.RequestError);
    await expect(editor.conn.agent.request(acp.methods.agent.session.load, { sessionId: 'nope', cwd: world.ws, mcpServers: [] })).rejects.toMatchObject({ code: -32002 });
    await expect(editor.conn.agent.request('session/prompt' as typeof acp.methods.agent.session.prompt, { sessionId: 1 } as never)).rejects.toMatchObject({ code: -32602 });

    const { sessionId } = await newSession(editor, world.ws);
    expect((await prompt(editor, sessionId, 'still here')).stopReason).toBe('end_turn');
    const pid = agentPid(world, sessionId);
    expect(isAlive(pid)).toBe(true);

    editor.child.stdin!.end();
    expect((await editor.exited).status).toBe(0);
    await waitFor(() => !isAlive(pid), 'the agent process to end');
  });
});

/**
 * A raw editor: `atrium acp` over stdio with hand-written JSON-RPC lines, recording every line it
 * writes in the order it arrives (what an editor that drops updates for unknown sessions sees).
 */
function rawAcp(world: PolicyWorld, agent: string, env: NodeJS.ProcessEnv = envOf(world)) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'src/main/cli/entry.ts'), 'acp', '--agent', agent, '--data-dir', world.dataDir], { cwd: repoRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: Array<Record<string, unknown>> = [];
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let next = 1;
  const request = async (method: string, params: unknown): Promise<{ index: number; message: { result?: Record<string, unknown>; error?: { code: number; message: string; data?: { code?: string } } } }> => {
    const id = next++;
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    await waitFor(() => lines.some((l) => l.id === id && !('method' in l)), `the answer to ${method}`, 120_000);
    const index = lines.findIndex((l) => l.id === id && !('method' in l));
    return { index, message: lines[index] as never };
  };
  const close = async () => {
    child.stdin.end();
    return exited;
  };
  return { child, lines, request, close, stderr: () => stderr, exited };
}

/** The pid of the session's latest agent process, as its journal recorded it (`agent_started`). */
function agentPid(world: PolicyWorld, sessionId: string): number {
  const db = new Database(path.join(world.dataDir, 'atrium.db'), { readonly: true });
  try {
    const row = db.prepare("SELECT data FROM session_events WHERE session_id = ? AND kind = 'agent_started' ORDER BY seq DESC LIMIT 1").get(sessionId) as { data: string } | undefined;
    const pid = row ? (JSON.parse(row.data) as { pid: number | null }).pid : null;
    if (typeof pid !== 'number') throw new Error(`no agent pid recorded for ${sessionId}`);
    return pid;
  } finally {
    db.close();
  }
}
