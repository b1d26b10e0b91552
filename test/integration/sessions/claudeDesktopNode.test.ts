import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_ENTRY, claudeWorld, lastMessageText, promptAllowing, type ClaudeWorld } from '../../support/claude';
import { endsWithToolResult, lastUserText } from '../../support/fakeAnthropic';
import { fakeNodeDir } from '../../support/fakeNode';
import { NESTED_RULES, promptAndWait } from '../../support/policy';

/**
 * The desktop app runs Node programs with Node.js from PATH (its RunAsNode fuse is off): here the
 * engine is told it runs inside Electron, PATH holds a logging `node`, and the real Claude Code
 * adapter and Atrium's hook bridge must both run through that Node, without ELECTRON_RUN_AS_NODE.
 */

let world: ClaudeWorld | null = null;
afterEach(async () => {
  await world?.closeAll();
  world = null;
});

describe('Claude Code in the desktop app runs with node from PATH (real adapter, fake endpoint)', () => {
  it('starts the adapter and its bridged hooks with that node; the hooks reach Atrium', async () => {
    let ws = '';
    world = await claudeWorld((req) => {
      const text = lastUserText(req);
      if (text.includes('<session>')) return { text: 'Title' };
      if (/please read/.test(text)) {
        if (endsWithToolResult(req)) return { text: 'read done' };
        return { toolUse: { name: 'Read', input: { file_path: path.join(ws, 'pkg/notes.txt') } } };
      }
      return { text: 'hello' };
    });
    ws = world.ws;
    world.write(NESTED_RULES);
    const node = fakeNodeDir();
    const engine = world.openTrusted({ sessions: { envPath: node.dir, node: { electron: true, env: {} } } });
    expect(engine.sessions.agents.resolve('claude')).toMatchObject({ command: node.file, args: [CLAUDE_ENTRY] });

    const s = engine.sessions.create({ cwd: ws, agentId: 'claude' });
    expect(await promptAndWait(engine, s.id, 'say hi')).toBe('end_turn');
    expect(await promptAllowing(engine, s.id, 'please read the notes')).toBe('end_turn');
    // the nested rule came back through the bridge (PostToolUse of the Read)
    const afterRead = world.fake.requests.find((r) => endsWithToolResult(r) && lastMessageText(r).includes('some notes'));
    expect(JSON.stringify(afterRead?.body)).toContain('Nested rule: use tabs in pkg.');
    expect(engine.policy.view(s.id).contextualRules.map((r) => [r.relativePath, r.delivery])).toEqual([['pkg/AGENTS.md', 'claude-hook']]);

    const runs = node.log();
    const hook = path.join(world.dataDir, 'bridge/claude-hook.cjs');
    expect(runs[0]).toBe(`unset|${CLAUDE_ENTRY}`);
    expect(runs).toEqual(expect.arrayContaining([`unset|${hook} PreToolUse`, `unset|${hook} PostToolUse`]));
    expect(runs.every((line) => line.startsWith('unset|')), runs.join('\n')).toBe(true);
  }, 180_000);
});
