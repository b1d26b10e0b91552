import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ASYNC_MESSAGE } from '../../../src/main/core/hooks/run';
import { approveHooks, commandHook, hookSettings, items, policyWorlds, promptAndWait } from '../../support/policy';
import { waitFor } from '../../support/sessions';

/**
 * Hooks with `async: true` (Claude Code semantics, formats.md §2.5): they run in the background,
 * are not awaited, and their result decides nothing; the run history gets their real result later.
 */

const SLOW_BLOCKER = '#!/bin/sh\ncat > /dev/null\nsleep 3\ntouch "$CLAUDE_PROJECT_DIR/async-done"\necho "blocked by the async hook" >&2\nexit 2\n';

const worlds = policyWorlds();

describe('async hooks in sessions (scripted agent)', () => {
  it('an async UserPromptSubmit hook neither delays nor blocks the prompt; its result is recorded when it finishes', async () => {
    const world = worlds.create(
      {},
      {
        '.claude/hooks/slow.sh': SLOW_BLOCKER,
        '.claude/settings.json': hookSettings({ UserPromptSubmit: [{ hooks: [commandHook('sh .claude/hooks/slow.sh', { async: true })] }] }),
      },
    );
    const engine = world.openTrusted();
    const [hook] = await approveHooks(engine, world.ws, ['slow.sh']);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });

    expect(await promptAndWait(engine, s.id, 'go on')).toBe('end_turn');
    // the turn ended before the hook did, and its exit 2 blocked nothing
    expect(fs.existsSync(path.join(world.ws, 'async-done'))).toBe(false);
    expect(items(engine, s.id).some((i) => i.kind === 'agent_message' && i.text === 'echo: go on')).toBe(true);
    const run = engine.policy.view(s.id).hooks.runs.at(-1)!;
    expect(run).toMatchObject({ event: 'UserPromptSubmit', decision: 'none', results: [expect.objectContaining({ id: hook.id, message: ASYNC_MESSAGE, exitCode: null, skipped: null })] });

    await waitFor(() => fs.existsSync(path.join(world.ws, 'async-done')), 'the async hook to finish');
    const recorded = await waitFor(() => engine.hooks.runs({ path: world.ws }, hook.id).find((r) => r.exitCode === 2), 'its real result in the run history');
    expect(recorded.stderr).toContain('blocked by the async hook');
  }, 60_000);
});
