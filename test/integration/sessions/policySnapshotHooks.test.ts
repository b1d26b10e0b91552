import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { approveHooks, commandHook, hookSettings, idleShutdown, lastTurnText, notices, policyWorlds, promptAndWait } from '../../support/policy';

/**
 * "Trust revocation, plugin toggles and disk edits after that never change what the
 * running session was given; the next session sees the new state", for hooks and MCP servers:
 * a running session keeps the hooks of its snapshot (re-verified by digest right before each run,
 * so changed bytes never run) and the MCP servers of its snapshot across agent respawns.
 */

const LOG_PROMPT = '#!/bin/sh\ncat > /dev/null\necho prompt >> "$CLAUDE_PROJECT_DIR/prompt-log"\n';
const TAMPERED = '#!/bin/sh\ncat > /dev/null\ntouch "$CLAUDE_PROJECT_DIR/tampered-ran"\n';
const LOG_SETTINGS = hookSettings({ UserPromptSubmit: [{ hooks: [commandHook('sh .claude/hooks/log.sh')] }] });

const worlds = policyWorlds();

const logLines = (ws: string) => (fs.existsSync(path.join(ws, 'prompt-log')) ? fs.readFileSync(path.join(ws, 'prompt-log'), 'utf8').trim().split('\n').length : 0);

describe('the snapshot of hooks and MCP servers (scripted agent)', () => {
  it('a hook revoked mid-session keeps running in that session (also after an idle respawn); a new session does not run it', async () => {
    const world = worlds.create({ capabilities: { resume: true } }, { '.claude/hooks/log.sh': LOG_PROMPT, '.claude/settings.json': LOG_SETTINGS });
    const engine = world.openTrusted({ sessions: { idleMs: 400 } });
    const [hook] = await approveHooks(engine, world.ws, ['log.sh']);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'one')).toBe('end_turn');
    expect(logLines(world.ws)).toBe(1);

    await engine.hooks.revoke({ path: world.ws }, [hook.id]);
    expect(await promptAndWait(engine, s.id, 'two')).toBe('end_turn');
    expect(logLines(world.ws)).toBe(2);
    await idleShutdown(engine, s.id);
    expect(await promptAndWait(engine, s.id, 'three')).toBe('end_turn');
    expect(logLines(world.ws)).toBe(3);
    expect(notices(engine, s.id, 'hooks_skipped')).toHaveLength(0);

    const next = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, next.id, 'fresh')).toBe('end_turn');
    expect(logLines(world.ws)).toBe(3);
    expect(notices(engine, next.id, 'hooks_skipped').map((n) => n.title)).toEqual(['1 hook not run by Atrium: not approved']);
  }, 90_000);

  it('a hook script edited mid-session is skipped with one "modified since approval" notice and its new bytes never run', async () => {
    const world = worlds.create({}, { '.claude/hooks/log.sh': LOG_PROMPT, '.claude/settings.json': LOG_SETTINGS });
    const engine = world.openTrusted();
    const [hook] = await approveHooks(engine, world.ws, ['log.sh']);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'one')).toBe('end_turn');
    expect(logLines(world.ws)).toBe(1);

    world.write({ '.claude/hooks/log.sh': TAMPERED });
    expect(await promptAndWait(engine, s.id, 'two')).toBe('end_turn');
    expect(await promptAndWait(engine, s.id, 'three')).toBe('end_turn');
    expect(fs.existsSync(path.join(world.ws, 'tampered-ran'))).toBe(false);
    expect(logLines(world.ws)).toBe(1);
    const skipped = notices(engine, s.id, 'hooks_skipped');
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatchObject({ severity: 'warning', title: 'UserPromptSubmit hook not run by Atrium: modified since approval', link: { tab: 'hooks', ids: [hook.id] } });
    expect(skipped[0].detail).toContain('.claude/settings.json');
    const runs = engine.policy.view(s.id).hooks.runs;
    expect(runs.at(-1)?.results).toEqual([expect.objectContaining({ id: hook.id, skipped: 'modified' })]);

    // restoring the approved bytes lets it run again
    world.write({ '.claude/hooks/log.sh': LOG_PROMPT });
    expect(await promptAndWait(engine, s.id, 'four')).toBe('end_turn');
    expect(logLines(world.ws)).toBe(2);
  }, 90_000);

  it('passes the snapshot\'s MCP servers on resume after an idle respawn and after a restart, even when revoked meanwhile; a new session does not get them', async () => {
    const scenario = { capabilities: { resume: true }, turns: [{ match: '^mcp', steps: [{ text: 'mcp: [{{mcp}}]' }] }] };
    const world = worlds.create(scenario, { '.mcp.json': { mcpServers: { docs: { command: 'node', args: ['docs-server.js'] } } } });
    let engine = world.openTrusted({ sessions: { idleMs: 400 } });
    const [docs] = await approveHooks(engine, world.ws, ['docs']);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'mcp please')).toBe('end_turn');
    expect(lastTurnText(engine, s.id)).toContain('mcp: [docs]');

    await engine.hooks.revoke({ path: world.ws }, [docs.id]);
    await idleShutdown(engine, s.id);
    expect(await promptAndWait(engine, s.id, 'mcp again')).toBe('end_turn');
    expect(engine.sessions.show(s.id).resume?.outcome).toBe('resumed');
    expect(lastTurnText(engine, s.id)).toContain('mcp: [docs]');

    await world.closeAll();
    engine = world.open();
    expect(await promptAndWait(engine, s.id, 'mcp after restart')).toBe('end_turn');
    expect(lastTurnText(engine, s.id)).toContain('mcp: [docs]');

    // a changed definition never starts, even in the session that had it
    world.write({ '.mcp.json': { mcpServers: { docs: { command: 'node', args: ['other-server.js'] } } } });
    const fresh = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, fresh.id, 'mcp fresh')).toBe('end_turn');
    expect(lastTurnText(engine, fresh.id)).toContain('mcp: []');
    await world.closeAll();
    engine = world.open();
    expect(await promptAndWait(engine, s.id, 'mcp changed')).toBe('end_turn');
    expect(lastTurnText(engine, s.id)).toContain('mcp: []');
  }, 120_000);
});
