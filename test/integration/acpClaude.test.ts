import fs from 'node:fs';
import path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startEditor, stopEditors, type TestEditor } from '../support/acpEditor';
import { claudeWorld, requestText, type ClaudeWorld } from '../support/claude';
import { runCli } from '../support/cli';
import { endsWithToolResult, lastUserText, type FakeRequest } from '../support/fakeAnthropic';
import { agentTestEnv, approveHooks, commandHook, hookSettings } from '../support/policy';
import { waitFor } from '../support/sessions';

/**
 * `atrium acp --agent claude` driven by the ACP SDK's client side (as an editor), in front of the
 * real Claude Code ACP adapter (pinned devDependency) running offline against the fake Anthropic
 * Messages endpoint (acp.md §3.1).
 */

let world: ClaudeWorld | null = null;
afterEach(async () => {
  await stopEditors();
  await world?.closeAll();
  world = null;
});

const marker = (name: string) => `#!/bin/sh\ntouch "$CLAUDE_PROJECT_DIR/${name}"\n`;

/** The environment `atrium acp` (and so Claude) runs with: the world's home, the fake endpoint, no machine credentials. */
const envOf = (w: ClaudeWorld): NodeJS.ProcessEnv =>
  agentTestEnv(/^(ANTHROPIC_|CLAUDE)/, { HOME: w.home, IS_SANDBOX: '1', ANTHROPIC_BASE_URL: w.fake.url, ANTHROPIC_API_KEY: 'sk-ant-fake', DISABLE_AUTOUPDATER: '1' });

/** Requests of real turns (not Claude's title generation). */
const turnRequests = (w: ClaudeWorld) => w.fake.requests.filter((r) => !lastUserText(r).includes('<session>'));

async function trustedClaudeWorld(reply: (req: FakeRequest) => ReturnType<Parameters<typeof claudeWorld>[0]>): Promise<ClaudeWorld> {
  const w = await claudeWorld(reply);
  w.write({
    'AGENTS.md': 'Root rule: always be kind.\n',
    '.claude/hooks/approved.sh': marker('approved-ran'),
    '.claude/hooks/unapproved.sh': marker('unapproved-ran'),
    '.claude/settings.json': hookSettings({ SessionStart: [{ hooks: [commandHook('sh .claude/hooks/approved.sh'), commandHook('sh .claude/hooks/unapproved.sh')] }] }),
  });
  const engine = w.openTrusted();
  await approveHooks(engine, w.ws, ['approved.sh']);
  await engine.close();
  return w;
}

const prompt = (editor: TestEditor, sessionId: string, text: string) => editor.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });

describe('atrium acp in front of the real Claude Code adapter (fake endpoint)', () => {
  it('rules reach the model once, only the approved hook runs, a permission request round-trips to the editor, the session is listed', async () => {
    let ws = '';
    world = await trustedClaudeWorld((req) => {
      const text = lastUserText(req);
      if (text.includes('<session>')) return { text: 'Title' };
      if (/make the file/.test(text)) {
        if (endsWithToolResult(req)) return { text: 'file made' };
        return { toolUse: { name: 'Bash', input: { command: `touch ${path.join(ws, 'made-by-claude.txt')}`, description: 'make the file' } } };
      }
      return { text: 'hello from the model' };
    });
    ws = world.ws;
    const editor = startEditor(world.dataDir, 'claude', envOf(world));
    await editor.initialize();
    const { sessionId } = await editor.conn.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });

    expect((await prompt(editor, sessionId, 'say hi')).stopReason).toBe('end_turn');
    await waitFor(() => editor.agentText(sessionId).includes('hello from the model'), 'the model’s reply in the editor');
    const first = turnRequests(world)[0];
    // once: in the system prompt, not again in the messages
    expect(requestText(first).split('Root rule: always be kind.').length - 1).toBe(1);
    expect(JSON.stringify(first.body.system)).toContain('Root rule: always be kind.');
    expect(fs.existsSync(path.join(ws, 'approved-ran'))).toBe(true);
    expect(fs.existsSync(path.join(ws, 'unapproved-ran'))).toBe(false);

    expect((await prompt(editor, sessionId, 'please make the file')).stopReason).toBe('end_turn');
    expect(editor.permissions.length).toBeGreaterThanOrEqual(1);
    expect(editor.permissions[0]).toMatchObject({ sessionId, toolCall: expect.objectContaining({ toolCallId: expect.any(String) }) });
    expect(fs.existsSync(path.join(ws, 'made-by-claude.txt'))).toBe(true);
    await waitFor(() => editor.agentText(sessionId).includes('file made'), 'the model’s reply after the tool ran');
    // the tool call itself reached the editor as updates
    expect((editor.updates.get(sessionId) ?? []).some((u) => u.sessionUpdate === 'tool_call')).toBe(true);

    const list = runCli(['session', 'list', '--data-dir', world.dataDir], { HOME: world.home });
    expect(list.stdout).toContain(sessionId);
    expect(runCli(['session', 'show', sessionId, '--data-dir', world.dataDir], { HOME: world.home }).stdout).toContain('file made');
  }, 240_000);

  it('cancels mid-turn; after a SIGKILL of atrium acp, session/load from a new one replays and resumes the session', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    world = await trustedClaudeWorld((req) => {
      const text = lastUserText(req);
      if (text.includes('<session>')) return { text: 'Title' };
      if (/tell a long story/.test(text)) return { text: Array.from({ length: 400 }, (_, i) => `word${i}`).join(' '), paceMs: 20, hold: { afterWords: 5, until: held } };
      return { text: `answer to: ${text.slice(-40)}` };
    });
    const editor = startEditor(world.dataDir, 'claude', envOf(world));
    await editor.initialize();
    const { sessionId } = await editor.conn.agent.request(acp.methods.agent.session.new, { cwd: world.ws, mcpServers: [] });
    expect((await prompt(editor, sessionId, 'remember 42')).stopReason).toBe('end_turn');

    const turn = prompt(editor, sessionId, 'tell a long story');
    await waitFor(() => editor.agentText(sessionId).includes('word3'), 'the story to stream');
    await editor.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await turn).stopReason).toBe('cancelled');
    release();

    editor.child.kill('SIGKILL');
    await editor.exited;
    const second = startEditor(world.dataDir, 'claude', envOf(world));
    await second.initialize();
    await second.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: world.ws, mcpServers: [] });
    const replay = second.updates.get(sessionId) ?? [];
    expect(replay.some((u) => u.sessionUpdate === 'user_message_chunk' && u.content.type === 'text' && u.content.text === 'remember 42')).toBe(true);
    expect(second.agentText(sessionId)).toContain('answer to:');

    expect((await prompt(second, sessionId, 'and now?')).stopReason).toBe('end_turn');
    await waitFor(() => second.agentText(sessionId).includes('answer to:') && second.agentText(sessionId).lastIndexOf('answer to:') > second.agentText(sessionId).indexOf('word3'), 'the resumed agent to answer');
    // the resumed Claude still has the conversation: the model sees the first prompt again
    expect(requestText(turnRequests(world).at(-1)!)).toContain('remember 42');
  }, 300_000);
});
