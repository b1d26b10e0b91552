import { describe, expect, it } from 'vitest';
import { substituteArguments } from '../../../src/main/core/extensions/commands/arguments';
import { SingleUseTokens, TOKEN_TTL_MS } from '../../../src/main/core/extensions/commands/tokens';
import { findInvocable, invocables, invokeName, loadInvocable } from '../../../src/main/core/extensions/invocable';
import { build, makeDir, md } from './helpers';

/** What a session's "/" menu offers: commands and user-invocable skills, one naming rule. */
describe('invocable commands and skills', () => {
  it('lists active commands and user-invocable skills; a skill beats a command of the same name; plugin short names only when unique', async () => {
    const plugin = (name: string) => ({
      [`.claude/plugins/${name}/.claude-plugin/plugin.json`]: JSON.stringify({ name }),
      [`.claude/plugins/${name}/commands/deploy.md`]: `Deploy with ${name}`,
      [`.claude/plugins/${name}/commands/only-${name}.md`]: `Only ${name}`,
    });
    const dir = makeDir({
      '.claude/commands/review.md': 'Review $ARGUMENTS',
      '.claude/commands/ship.md': 'the command ship',
      '.claude/skills/ship/SKILL.md': md({ name: 'ship', description: 'the skill ship' }, 'Skill body'),
      '.claude/skills/quiet/SKILL.md': md({ name: 'quiet', description: 'model only', 'user-invocable': 'false' }, 'Quiet'),
      ...plugin('a'),
      ...plugin('b'),
    });
    const c = await build(dir, makeDir());
    const all = invocables(c);
    expect(all.filter((i) => !i.record.plugin).map((i) => `${i.kind}:${i.record.id}`)).toEqual(['command:review', 'skill:ship']);
    expect(all.some((i) => i.kind === 'command' && i.record.id === 'ship')).toBe(false);
    expect(all.some((i) => i.record.id === 'quiet')).toBe(false);
    expect(findInvocable(c, '/ship').kind).toBe('skill');
    // two plugins' same-named commands never shadow each other: the short name is ambiguous, so the menu offers the ids
    expect(all.filter((i) => i.record.plugin).map((i) => [i.record.id, invokeName(all, i)])).toEqual([
      ['plugin:a:deploy', 'plugin:a:deploy'],
      ['plugin:a:only-a', 'only-a'],
      ['plugin:b:deploy', 'plugin:b:deploy'],
      ['plugin:b:only-b', 'only-b'],
    ]);
    expect(() => findInvocable(c, 'deploy')).toThrow(/several commands or skills: plugin:a:deploy, plugin:b:deploy/);
    expect(findInvocable(c, 'only-b').record.id).toBe('plugin:b:only-b');
    expect(() => findInvocable(c, 'nope')).toThrow(/No command or skill "\/nope"/);
    const loaded = await loadInvocable(findInvocable(c, 'ship'));
    expect(loaded).toMatchObject({ kind: 'skill', template: 'Skill body\n', names: [] });
  });

  it('named skill arguments map to words in order; unmatched names are empty; other $words, $& and \\$ stay literal', () => {
    const r = substituteArguments('To $env/$region ($missing) as $USER: $0 $& \\$env', ['prod', '$&'], 'prod $&', ['env', 'region', 'missing']);
    expect(r).toEqual({ text: 'To prod/$& () as $USER: prod $& $env', used: true });
    // without names, $word is never touched (commands)
    expect(substituteArguments('$env $0', ['x'], 'x').text).toBe('$env x');
  });

  it('single-use tokens: one use, bound to their target (a wrong target does not spend them), expire', () => {
    let now = 1_000;
    const tokens = new SingleUseTokens<{ scope: string }>(() => now);
    const t = tokens.issue({ scope: 'session:a' });
    expect(tokens.take(t, (v) => v.scope === 'session:b')).toBeNull();
    expect(tokens.take(t, (v) => v.scope === 'session:a')).toEqual({ scope: 'session:a' });
    expect(tokens.take(t, () => true)).toBeNull();
    const late = tokens.issue({ scope: 'x' });
    now += TOKEN_TTL_MS + 1;
    expect(tokens.take(late, () => true)).toBeNull();
  });
});
