import { describe, expect, it } from 'vitest';
import { inactiveNotice } from '../../../src/main/core/acpFront/notice';
import type { SessionPolicy } from '../../../src/shared/contract';

/** The parts of a session's policy view the notice reads; the rest is irrelevant to it. */
function policy(trust: 'trusted' | 'partial' | 'restricted', skipped: Array<{ id: string; event: string; command: string | null; state: string }> = [], withheld: string[] = []): SessionPolicy {
  return {
    snapshot: { takenAt: '', sourceDir: '/p', fromDir: '/p', catalogSha256: '', trust },
    hooks: { approved: [], skipped: skipped.map((h) => ({ ...h, heldBack: false, file: '.claude/settings.json' })), runs: [] },
    mcp: { passed: [], withheld: withheld.map((name) => ({ id: name, name, state: 'unapproved', heldBack: false })) },
  } as unknown as SessionPolicy;
}

describe('the first message an editor shows for an atrium acp session', () => {
  it('says nothing when the workspace is trusted and everything applies', () => {
    expect(inactiveNotice(policy('trusted'), '/p')).toBeNull();
  });

  it('in restricted mode: what the agent gets, and the commands that review and trust the folder (quoted for a shell)', () => {
    const text = inactiveNotice(policy('restricted'), '/home/me/my project')!;
    expect(text).toContain('restricted mode (not trusted)');
    expect(text).toContain("atrium trust review '/home/me/my project'");
    expect(text).toContain("atrium trust set '/home/me/my project' trusted");
  });

  it('trusted, with hooks that do not run and servers withheld: names them and how to approve them by digest', () => {
    const text = inactiveNotice(policy('trusted', [{ id: 'h1', event: 'SessionStart', command: 'sh evil.sh', state: 'unapproved' }], ['shady', 'other']), '/p')!;
    expect(text).toContain('1 hook will not run in this session: SessionStart: sh evil.sh (unapproved)');
    expect(text).toContain('2 MCP servers are withheld: shady, other');
    expect(text).toContain('atrium hooks approve /p ID');
    expect(text).not.toContain('restricted mode');
  });

  it('with a non-default data directory: every suggested command carries --data-dir, so it acts on the database this session lives in', () => {
    const restricted = inactiveNotice(policy('restricted'), '/p', '/tmp/atrium data')!;
    expect(restricted).toContain("`atrium trust review /p --data-dir '/tmp/atrium data'`");
    expect(restricted).toContain("`atrium trust set /p trusted --data-dir '/tmp/atrium data'`");
    const hooks = inactiveNotice(policy('trusted', [{ id: 'h1', event: 'SessionStart', command: 'sh a.sh', state: 'unapproved' }]), '/p', '/d')!;
    expect(hooks).toContain('`atrium hooks list /p --data-dir /d`');
    expect(hooks).toContain('`atrium hooks approve /p ID --data-dir /d`');
    expect(inactiveNotice(policy('restricted'), '/p')).not.toContain('--data-dir');
  });
});
