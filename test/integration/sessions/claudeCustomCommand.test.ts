import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_ENTRY, claudeWorld, type ClaudeWorld } from '../../support/claude';
import { lastUserText } from '../../support/fakeAnthropic';
import { commandHook, hookSettings, notices, promptAndWait } from '../../support/policy';

/**
 * The Claude Code ACP adapter defined as a user agent by path (`atrium agents define my-claude node
 * …/claude-agent-acp/dist/index.js`) must get the Claude preset's isolation: otherwise the adapter
 * loads the repository's own settings and runs its hooks by itself.
 */

let world: ClaudeWorld | null = null;
afterEach(async () => {
  await world?.closeAll();
  world = null;
});

describe('a user-defined command that is the Claude adapter gets the Claude isolation (real adapter, fake endpoint)', () => {
  it('runs with settingSources [] (the repository SessionStart hook never runs), rules in the system prompt, Atrium\'s bridge hooks', async () => {
    world = await claudeWorld((req) => (lastUserText(req).includes('<session>') ? { text: 'Title' } : { text: 'hello' }));
    const ws = world.ws;
    world.write({
      'AGENTS.md': 'Root rule: always be kind.\n',
      '.claude/hooks/marker.sh': '#!/bin/sh\ntouch "$CLAUDE_PROJECT_DIR/marker-from-hook"\n',
      '.claude/settings.json': hookSettings({ SessionStart: [{ hooks: [commandHook('sh .claude/hooks/marker.sh')] }], UserPromptSubmit: [{ hooks: [commandHook('sh .claude/hooks/marker.sh')] }] }),
    });
    const engine = world.openTrusted();
    engine.sessions.agents.define({ id: 'my-claude', name: 'My Claude', command: process.execPath, args: [CLAUDE_ENTRY], env: {} });

    const s = engine.sessions.create({ cwd: ws, agentId: 'my-claude' });
    expect(await promptAndWait(engine, s.id, 'say hi')).toBe('end_turn');
    expect(fs.existsSync(path.join(ws, 'marker-from-hook')), 'the adapter must not load the repository settings and run its hooks').toBe(false);
    const view = engine.policy.view(s.id);
    expect(view.agent.isolated).toBe(true);
    expect(view.agent.ownBehaviour[0]).toMatch(/^Recognised as Claude Code because the command runs @agentclientprotocol\/claude-agent-acp/);
    expect(view.staticRules).toMatchObject({ delivery: 'system-prompt', files: [{ relativePath: 'AGENTS.md' }] });
    const turn = world.fake.requests.find((r) => !lastUserText(r).includes('<session>'));
    expect(JSON.stringify(turn?.body.system)).toContain('Root rule: always be kind.');
    // Atrium skips what it controls, and here that is the whole story
    expect(notices(engine, s.id, 'hooks_skipped').map((n) => n.title)).toEqual(['2 hooks skipped: not approved']);
  }, 180_000);
});
