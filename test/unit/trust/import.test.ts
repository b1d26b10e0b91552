import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importConfirm, importSuggestions } from '../../../src/main/core/trust/import';
import { trustWorld, writeFiles } from './helpers';

describe('import from other tools, never silently', () => {
  it('reads Claude, Codex and Gemini trust stores under the engine home and records nothing', async () => {
    const w = trustWorld();
    const a = w.mkdir('a');
    const b = w.mkdir('b');
    const c = w.mkdir('group/c');
    const d = w.mkdir('d');
    writeFiles(w.home, {
      '.claude.json': JSON.stringify({ oauthAccount: { token: 'SECRET-TOKEN' }, projects: { [a]: { hasTrustDialogAccepted: true, allowedTools: [] }, [b]: { hasTrustDialogAccepted: false } } }),
      '.codex/config.toml': `model = "o3"\n[projects."${b}"]\ntrust_level = "trusted"\n\n[projects."${d}"]\ntrust_level = "untrusted"\n`,
      '.gemini/trustedFolders.json': `{\n  // Gemini writes comments sometimes\n  "${c}": "TRUST_PARENT",\n  "${a}": "DO_NOT_TRUST",\n  "${d}": "MAYBE"\n}`,
    });
    w.events.length = 0;
    const { sources, suggestions } = await importSuggestions(w.engine.trust, w.home);
    expect(sources.map((s) => [s.from, s.found])).toEqual([['claude', true], ['codex', true], ['gemini', true]]);
    expect(suggestions.map((s) => [s.from, s.path, s.state, s.sourceValue])).toEqual([
      ['claude', a, 'trusted', 'hasTrustDialogAccepted: true'],
      ['gemini', a, 'untrusted', 'DO_NOT_TRUST'],
      ['codex', b, 'trusted', 'trust_level = "trusted"'],
      ['codex', d, 'untrusted', 'trust_level = "untrusted"'],
      ['gemini', path.join(w.src, 'group'), 'trusted', 'TRUST_PARENT'],
    ]);
    expect(sources.find((s) => s.from === 'gemini')!.warnings[0].message).toContain('MAYBE');
    expect(JSON.stringify({ sources, suggestions })).not.toContain('SECRET-TOKEN');
    // nothing recorded, no event
    expect(w.engine.trust.list()).toEqual([]);
    expect(w.events).toEqual([]);
  });

  it('a trusted entry for a folder that no longer exists is offered as refused, and recording it is refused', async () => {
    const w = trustWorld();
    const gone = path.join(w.src, 'deleted-project');
    const kept = w.mkdir('kept');
    writeFiles(w.home, { '.claude.json': JSON.stringify({ projects: { [gone]: { hasTrustDialogAccepted: true }, [kept]: { hasTrustDialogAccepted: true } } }) });
    const { suggestions } = await importSuggestions(w.engine.trust, w.home, 'claude');
    const missing = suggestions.find((s) => s.path === gone)!;
    expect(missing).toMatchObject({ exists: false, refused: `${gone} does not exist, so there is nothing to trust. Check the path (or create the folder first).` });
    expect(suggestions.find((s) => s.path === kept)!.refused).toBeNull();
    expect(() => importConfirm(w.engine.trust, [{ path: gone, state: 'trusted', from: 'claude' }])).toThrowError(expect.objectContaining({ code: 'TRUST_REFUSED' }));
    expect(w.engine.trust.list()).toEqual([]);
  });

  it('tools that disagree about a folder: untrusted wins, the trusted side is refused, and importing again changes nothing', async () => {
    const w = trustWorld();
    const a = w.mkdir('a');
    writeFiles(w.home, {
      '.claude.json': JSON.stringify({ projects: { [a]: { hasTrustDialogAccepted: true } } }),
      '.gemini/trustedFolders.json': JSON.stringify({ [a]: 'DO_NOT_TRUST' }),
    });
    const first = await importSuggestions(w.engine.trust, w.home);
    const claude = first.suggestions.find((s) => s.from === 'claude')!;
    const gemini = first.suggestions.find((s) => s.from === 'gemini')!;
    const disagree = 'Tools disagree about this folder: Claude Code trusts it (hasTrustDialogAccepted: true), Gemini CLI marks it untrusted (DO_NOT_TRUST).';
    expect(claude).toMatchObject({ state: 'trusted', refused: `${disagree} Untrusted wins on import; trust the folder yourself if you mean to.` });
    expect(gemini).toMatchObject({ state: 'untrusted', refused: null, conflict: `${disagree} The import records untrusted, the safer decision.` });
    // confirming both, in either order, records untrusted only
    for (const order of [[claude, gemini], [gemini, claude]]) {
      const { recorded } = importConfirm(w.engine.trust, order);
      expect(w.engine.trust.status(a).state).toBe('untrusted');
      expect(recorded.every((r) => r.newState === 'untrusted')).toBe(true);
    }
    // "import all" (every suggestion not refused and not recorded yet) has nothing left to change
    const again = await importSuggestions(w.engine.trust, w.home);
    expect(again.suggestions.filter((s) => !s.refused && !s.alreadyRecorded)).toEqual([]);
  });

  it('records only the confirmed suggestions, with the import as source', async () => {
    const w = trustWorld();
    const a = w.mkdir('a');
    const b = w.mkdir('b');
    writeFiles(w.home, { '.codex/config.toml': `[projects."${a}"]\ntrust_level = "trusted"\n[projects."${b}"]\ntrust_level = "trusted"\n` });
    const { suggestions } = await importSuggestions(w.engine.trust, w.home, 'codex');
    const result = importConfirm(w.engine.trust, [suggestions.find((s) => s.path === a)!]);
    expect(result.recorded).toEqual([expect.objectContaining({ path: a, newState: 'trusted', source: 'import:codex' })]);
    expect(w.engine.trust.status(a).state).toBe('trusted');
    expect(w.engine.trust.status(b).state).toBe('undecided');
    const again = await importSuggestions(w.engine.trust, w.home, 'codex');
    expect(again.suggestions.find((s) => s.path === a)).toMatchObject({ alreadyRecorded: true, current: { state: 'trusted' } });
    expect(importConfirm(w.engine.trust, [{ path: a, state: 'trusted', from: 'codex' }])).toEqual({ recorded: [], unchanged: [a] });
  });

  it('marks a suggestion to trust the home folder as refused, and confirming it fails without recording', async () => {
    const w = trustWorld();
    writeFiles(w.home, { '.claude.json': JSON.stringify({ projects: { [w.home]: { hasTrustDialogAccepted: true } } }) });
    const { suggestions } = await importSuggestions(w.engine.trust, w.home, 'claude');
    expect(suggestions).toEqual([expect.objectContaining({ path: w.home, refused: expect.stringContaining('home folder') })]);
    expect(() => importConfirm(w.engine.trust, [{ path: w.home, state: 'trusted', from: 'claude' }])).toThrow(expect.objectContaining({ code: 'TRUST_REFUSED' }));
    expect(w.engine.trust.list()).toEqual([]);
  });

  it('missing files are reported as not found; malformed files give warnings with the line', async () => {
    const w = trustWorld();
    const none = await importSuggestions(w.engine.trust, w.home);
    expect(none.sources.every((s) => !s.found && s.warnings.length === 0)).toBe(true);
    expect(none.suggestions).toEqual([]);
    writeFiles(w.home, {
      '.claude.json': '{\n "projects": {\n',
      '.codex/config.toml': '[projects\n',
      '.gemini/trustedFolders.json': '["not", "an", "object"]',
    });
    const bad = await importSuggestions(w.engine.trust, w.home);
    const byFrom = Object.fromEntries(bad.sources.map((s) => [s.from, s.warnings[0]]));
    expect(byFrom.claude).toMatchObject({ line: 3, message: expect.stringContaining('invalid JSON') });
    expect(byFrom.codex).toMatchObject({ line: 1, message: expect.stringContaining('invalid TOML') });
    expect(byFrom.gemini.message).toContain('not a JSON object');
  });
});
