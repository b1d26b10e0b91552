import { describe, expect, it } from 'vitest';
import { matchesFilter } from '../../../src/renderer/src/components/FilterBox';
import { showControls } from '../../../src/renderer/src/features/rules/format';

describe('matchesFilter (the filter boxes of long lists)', () => {
  it('matches every word, case-insensitively, across fields; an empty query matches all; null fields are skipped', () => {
    expect(matchesFilter('', ['a'])).toBe(true);
    expect(matchesFilter('   ', [])).toBe(true);
    expect(matchesFilter('pretooluse LINT', ['PreToolUse', null, 'npm run lint'])).toBe(true);
    expect(matchesFilter('pretooluse deploy', ['PreToolUse', 'npm run lint'])).toBe(false);
    expect(matchesFilter('.claude/rules', [undefined, '.claude/rules/api.md'])).toBe(true);
  });
});

describe('showControls (rule text shown in the DOM)', () => {
  it('writes bidi controls, bidi marks, zero-width and other invisible characters as ⟨U+XXXX⟩', () => {
    expect(showControls('a\u202Eb')).toBe('a⟨U+202E⟩b');
    expect(showControls('x\u200Fy\u200Ez\u061C')).toBe('x⟨U+200F⟩y⟨U+200E⟩z⟨U+061C⟩');
    expect(showControls('zero\u200Bwidth\u2060joiner\uFEFF')).toBe('zero⟨U+200B⟩width⟨U+2060⟩joiner⟨U+FEFF⟩');
    expect(showControls('isolate\u2066x\u2069')).toBe('isolate⟨U+2066⟩x⟨U+2069⟩');
    expect(showControls('tag\u{E0041}')).toBe('tag⟨U+E0041⟩');
    expect(showControls('bell\u0007')).toBe('bell⟨U+0007⟩');
  });

  it('keeps tabs, newlines, ordinary text and a zero-width joiner inside an emoji sequence', () => {
    expect(showControls('a\tb\nc\r\nd é 中')).toBe('a\tb\nc\r\nd é 中');
    expect(showControls('👩\u200D💻')).toBe('👩\u200D💻');
    expect(showControls('a\u200Db')).toBe('a⟨U+200D⟩b');
  });
});

describe('filterSessions (the sessions lists)', () => {
  it('matches the words the state badge shows ("needs you"), not only the state name', async () => {
    const { filterSessions } = await import('../../../src/renderer/src/features/sessions/SessionRows');
    const base = { id: 's1', workspaceId: null, agentId: 'claude', agentVersion: null, cwd: '/w', title: 'Fix the build', live: true, pausedReason: null };
    const waiting = { ...base, id: 's1', state: 'awaiting_permission', pendingPermissions: 1 };
    const idle = { ...base, id: 's2', state: 'idle', pendingPermissions: 0 };
    const list = [waiting, idle] as unknown as Parameters<typeof filterSessions>[0];
    expect(filterSessions(list, 'needs you', () => null).map((s) => s.id)).toEqual(['s1']);
    expect(filterSessions(list, 'awaiting', () => null).map((s) => s.id)).toEqual(['s1']);
    expect(filterSessions(list, 'fix build', () => null).map((s) => s.id)).toEqual(['s1', 's2']);
  });
});
