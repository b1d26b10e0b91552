import { describe, expect, it } from 'vitest';
import { emptyRecord } from '../../../src/main/core/sessions/placement';
import { pausedReasonOf, RULES_CHANGED_MESSAGE_START, toSession, type SessionRecord } from '../../../src/main/core/sessions/records';
import { mismatchMessage } from '../../../src/main/core/sessions/workspacePolicy/provenance';
import { sessionStateText } from '../../../src/shared/sessionStateText';
import { Session } from '../../../src/shared/contract';

function record(state: SessionRecord['state'], lastError: string | null): SessionRecord {
  const now = new Date().toISOString();
  return { ...emptyRecord(), id: 's', cwd: '/w', agentId: 'a', state, lastError, createdAt: now, updatedAt: now };
}

const summary = (r: SessionRecord) => toSession(r, { live: false, queue: [], pendingPermissions: 0 });

/** The message a fail-closed resume records (the policy's own wording). */
const RULES_MESSAGE = mismatchMessage({
  detectedAt: new Date().toISOString(),
  recordedProvenanceSha256: 'a'.repeat(64),
  currentProvenanceSha256: 'b'.repeat(64),
  changes: [{ relativePath: 'AGENTS.md', source: 'project', change: 'edited', scope: 'static', diff: null }],
  actions: ['continue', 'new'],
});

describe('the paused session state', () => {
  it('a paused record reads "paused: rules changed" and is a valid contract Session', () => {
    const s = summary(record('paused', RULES_MESSAGE));
    expect([s.state, s.pausedReason]).toEqual(['paused', 'rules_changed']);
    expect(sessionStateText(s)).toBe('paused: rules changed');
    expect(Session.parse(s)).toEqual(s);
  });

  it('a record stored as failed by a fail-closed rules check (older versions) reads as paused; other failures stay failed', () => {
    expect(RULES_MESSAGE.startsWith(RULES_CHANGED_MESSAGE_START)).toBe(true);
    expect(pausedReasonOf(record('failed', RULES_MESSAGE))).toBe('rules_changed');
    expect(summary(record('failed', RULES_MESSAGE)).state).toBe('paused');
    const crashed = summary(record('failed', 'The agent exited unexpectedly (exit code 3).'));
    expect([crashed.state, crashed.pausedReason, sessionStateText(crashed)]).toEqual(['failed', null, 'failed']);
    // the same message on a session that went on (e.g. idle after "continue") is history, not a pause
    expect(pausedReasonOf(record('idle', RULES_MESSAGE))).toBeNull();
  });

  it('every other state reads as its name', () => {
    for (const state of ['starting', 'idle', 'busy', 'awaiting_permission', 'interrupted', 'closed'] as const) expect(sessionStateText(summary(record(state, null)))).toBe(state);
  });
});
