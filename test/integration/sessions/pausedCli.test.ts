import { describe, expect, it } from 'vitest';
import type { Session } from '../../../src/shared/contract';
import { runCli } from '../../support/cli';
import { lastTurnText, notices, policyWorlds, type PolicyWorld } from '../../support/policy';

/**
 * A session whose rules changed since it was created, driven from the real CLI (a child process
 * per command) with the scripted agent: resume fails closed into `paused: rules changed` (not
 * `failed`), list/show say so, a prompt is refused without starting anything, and the two ways on
 * (`--continue-with-current-rules`, `--new`) work from the command line.
 */

const SCENARIO = {
  capabilities: { resume: true, loadSession: true },
  modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] },
  turns: [],
};

const worlds = policyWorlds();

/** Runs `atrium ARGS --data-dir <world's>` with the world's HOME. */
function atrium(world: PolicyWorld, ...args: string[]) {
  return runCli([...args, '--data-dir', world.dataDir], { HOME: world.home });
}

/** A world whose workspace has one static rule, is trusted, and knows the scripted agent; no engine left open. */
async function pausedWorld(): Promise<{ world: PolicyWorld; id: string }> {
  const world = worlds.create(SCENARIO, { 'AGENTS.md': 'Root rule: always be kind.\n' });
  world.openTrusted(); // defines `scripted` and records the trust in the data dir
  await world.closeAll();
  const created = atrium(world, 'session', 'new', world.ws, '--agent', 'scripted', '--mode', 'code', '--title', 'rules work', '--prompt', 'hello', '--json');
  expect(created.status, created.stderr).toBe(0);
  const { session } = JSON.parse(created.stdout.trim().split('\n').at(-1)!) as { session: Session };
  expect(session.modes?.currentModeId).toBe('code');
  world.write({ 'AGENTS.md': 'Root rule: be very kind.\n' });
  return { world, id: session.id };
}

/** `session show ID --json` → the session. */
function shown(world: PolicyWorld, id: string): Session {
  const r = atrium(world, 'session', 'show', id, '--json');
  expect(r.status, r.stderr).toBe(0);
  return (r.json as { session: Session }).session;
}

describe('a session whose rules changed, from the CLI (scripted agent)', () => {
  it('resume pauses it ("paused: rules changed" in resume, list and show); a prompt is refused naming both options and starts nothing', async () => {
    const { world, id } = await pausedWorld();

    const resumed = atrium(world, 'session', 'resume', id, '--json');
    expect(resumed.status).toBe(1);
    const paused = (resumed.json as { session: Session }).session;
    expect(paused.state).toBe('paused');
    expect(paused.pausedReason).toBe('rules_changed');
    expect(paused.live).toBe(false);
    expect(paused.lastError).toContain('edited AGENTS.md (static)');

    const human = atrium(world, 'session', 'resume', id);
    expect(human.status).toBe(1);
    expect(human.stdout).toContain(`${id}  paused: rules changed  scripted`);
    expect(human.stdout).toContain(`atrium session resume ${id} --continue-with-current-rules`);

    const list = atrium(world, 'session', 'list');
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain(`${id}  paused: rules changed  scripted`);
    const show = atrium(world, 'session', 'show', id);
    expect(show.status, show.stderr).toBe(0);
    expect(show.stdout.split('\n')[0]).toContain(`${id}  paused: rules changed`);
    expect(show.stdout).toContain('edited AGENTS.md (static)');
    expect(show.stdout).toContain(`atrium session resume ${id} --new`);

    const before = shown(world, id);
    const prompt = atrium(world, 'session', 'prompt', id, 'go on');
    expect(prompt.status).toBe(1);
    expect(prompt.stderr).toContain('paused');
    expect(prompt.stderr).toContain(`atrium session resume ${id} --continue-with-current-rules`);
    expect(prompt.stderr).toContain(`atrium session resume ${id} --new`);
    const after = shown(world, id);
    // nothing was started or recorded: same state, same event log
    expect(after.state).toBe('paused');
    expect(after.eventCount).toBe(before.eventCount);
    expect(after.resume).toEqual(before.resume);

    const both = atrium(world, 'session', 'resume', id, '--new', '--continue-with-current-rules');
    expect(both.status).toBe(2);
  }, 120_000);

  it('--continue-with-current-rules records the new rules and resumes; the next turn runs with them', async () => {
    const { world, id } = await pausedWorld();
    expect(atrium(world, 'session', 'resume', id).status).toBe(1);

    const continued = atrium(world, 'session', 'resume', id, '--continue-with-current-rules', '--json');
    expect(continued.status, continued.stderr).toBe(0);
    const s = (continued.json as { session: Session }).session;
    expect(s.id).toBe(id);
    expect(s.state).toBe('idle');
    expect(s.pausedReason).toBeNull();
    expect(s.resume?.outcome).toBe('resumed');
    expect(atrium(world, 'session', 'list').stdout).toContain(`${id}  idle  scripted`);

    const prompt = atrium(world, 'session', 'prompt', id, 'after accept', '--json');
    expect(prompt.status, prompt.stderr).toBe(0);
    const engine = world.open();
    expect(lastTurnText(engine, id)).toContain('Root rule: be very kind.');
    expect(notices(engine, id, 'rules_accepted')[0].detail).toContain('edited AGENTS.md (static)');

    // nothing left to resolve: the flag says so instead of guessing
    await world.closeAll();
    const again = atrium(world, 'session', 'resume', id, '--continue-with-current-rules');
    expect(again.status).toBe(2); // the flag does not apply to this session: bad usage
    expect(again.stderr).toContain('no rule mismatch');
  }, 120_000);

  it('--new starts a new session with the same agent, folder, mode and title and the current rules; the old one stays paused', async () => {
    const { world, id } = await pausedWorld();
    expect(atrium(world, 'session', 'resume', id).status).toBe(1);
    const old = shown(world, id);

    const created = atrium(world, 'session', 'resume', id, '--new', '--json');
    expect(created.status, created.stderr).toBe(0);
    const { session: fresh, previous } = created.json as { session: Session; previous: Session };
    expect(fresh.id).not.toBe(id);
    expect([fresh.agentId, fresh.cwd, fresh.title, fresh.workspaceId]).toEqual([old.agentId, old.cwd, 'rules work', old.workspaceId]);
    expect(fresh.modes?.currentModeId).toBe('code');
    expect(fresh.state).toBe('idle');
    expect(previous.id).toBe(id);
    expect(previous.state).toBe('paused');

    const human = atrium(world, 'session', 'resume', id, '--new');
    expect(human.status, human.stderr).toBe(0);
    const newer = /New session (\S+) \(scripted\)/.exec(human.stdout)?.[1];
    expect(newer).toBeTruthy();
    expect(newer).not.toBe(fresh.id);
    expect(human.stdout).toContain(`The old session ${id} stays paused: rules changed.`);

    expect(shown(world, id).state).toBe('paused');
    const prompt = atrium(world, 'session', 'prompt', fresh.id, 'hello again', '--json');
    expect(prompt.status, prompt.stderr).toBe(0);
    const engine = world.open();
    expect(lastTurnText(engine, fresh.id)).toContain('Root rule: be very kind.');
    expect(engine.sessions.list({ cwd: world.ws }).map((s) => s.id).sort()).toEqual([id, fresh.id, newer!].sort());
  }, 120_000);

  it('a session stored as failed by a rules change before the paused state existed reads as paused and resolves the same way', async () => {
    const { world, id } = await pausedWorld();
    expect(atrium(world, 'session', 'resume', id).status).toBe(1);
    // what the older version wrote: state `failed` with the fail-closed message as the last error
    const engine = world.open();
    engine.store.db.prepare("UPDATE sessions SET state = 'failed' WHERE id = ?").run(id);
    await world.closeAll();

    expect(atrium(world, 'session', 'list').stdout).toContain(`${id}  paused: rules changed`);
    const prompt = atrium(world, 'session', 'prompt', id, 'go on');
    expect(prompt.status).toBe(1);
    expect(prompt.stderr).toContain('--continue-with-current-rules');
    const continued = atrium(world, 'session', 'resume', id, '--continue-with-current-rules', '--json');
    expect(continued.status, continued.stderr).toBe(0);
    expect((continued.json as { session: Session }).session.state).toBe('idle');
  }, 120_000);
});
