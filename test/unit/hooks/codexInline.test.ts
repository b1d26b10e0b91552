import { afterEach, describe, expect, it } from 'vitest';
import { hookWorld, type HookWorld } from './helpers';

/** Codex reads hooks from `hooks.json` and from inline `[hooks]` tables in `config.toml` (formats.md §1.4). */
describe('Codex inline [hooks] in .codex/config.toml', () => {
  let w: HookWorld | null = null;
  afterEach(async () => {
    await w?.engine.close();
    w = null;
  });

  const CONFIG = [
    'model = "o4-mini"',
    '',
    '[[hooks.PreToolUse]]',
    'matcher = "Bash"',
    '',
    '[[hooks.PreToolUse.hooks]]',
    'type = "command"',
    'command = "python3 .codex/hooks/guard.py"',
    '',
    '[[hooks.PreToolUse.hooks]]',
    'type = "command"',
    'command = "echo second"',
    '',
    '[[hooks.Stop]]',
    '[[hooks.Stop.hooks]]',
    'type = "command"',
    'command = "echo stop"',
    '',
    '# Codex\'s own trust record: not a hook',
    '[hooks.state."project:pre_tool_use:0"]',
    'trusted_hash = "sha256:0000000000000000000000000000000000000000000000000000000000000000"',
    '',
  ].join('\n');

  it('lists each inline hook with its file and line, digests the script it runs, and never takes hooks.state for an event', async () => {
    w = hookWorld();
    w.write({ '.codex/config.toml': CONFIG, '.codex/hooks/guard.py': 'print("ok")\n' });
    const listing = await w.list();
    const inline = listing.hooks.filter((h) => h.source.file === '.codex/config.toml');
    expect(inline.map((h) => [h.event, h.matcher, h.command, h.line])).toEqual([
      ['PreToolUse', 'Bash', 'python3 .codex/hooks/guard.py', 6],
      ['PreToolUse', 'Bash', 'echo second', 10],
      ['Stop', null, 'echo stop', 15],
    ]);
    expect(inline.every((h) => h.source.format === 'codex' && h.source.scope === 'project' && h.state === 'unapproved')).toBe(true);
    expect(listing.hooks.some((h) => h.event === 'state')).toBe(false);
    const guard = inline[0];
    expect(guard.scripts.map((s) => s.path)).toEqual(['.codex/hooks/guard.py']);

    // approving the exact digest, then editing the script, makes it `modified`
    await w.engine.hooks.approve({ path: w.project }, [{ id: guard.id, digest: guard.digest }]);
    expect((await w.hook('guard.py')).state).toBe('approved');
    w.write({ '.codex/hooks/guard.py': 'import os; os.system("curl evil")\n' });
    expect((await w.hook('guard.py')).state).toBe('modified');
  });

  it('a broken config.toml is a warning with its line; hooks.json of the same layer still loads and both forms are flagged', async () => {
    w = hookWorld();
    w.write({
      '.codex/config.toml': 'model = "x"\n[[hooks.Stop]\n',
      '.codex/hooks.json': { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo from-json' }] }] } },
    });
    const broken = await w.list();
    expect(broken.warnings).toContainEqual(expect.objectContaining({ path: '.codex/config.toml', line: 2, message: expect.stringMatching(/invalid TOML at line 2/) }));
    expect(broken.hooks.map((h) => h.command)).toContain('echo from-json');

    w.write({ '.codex/config.toml': '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "echo from-toml"\n' });
    const both = await w.list();
    expect(both.hooks.map((h) => h.command).sort()).toEqual(['echo from-json', 'echo from-toml']);
    expect(both.warnings).toContainEqual(expect.objectContaining({ path: '.codex/config.toml', message: expect.stringMatching(/\.codex\/hooks\.json defines more: Codex runs both sets/) }));
  });

  it('user-level ~/.codex/config.toml hooks are listed with user scope; project ones are held back in restricted mode', async () => {
    w = hookWorld({ trusted: false });
    w.write({ '.codex/config.toml': '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "echo user-stop"\n' }, w.home);
    w.write({ '.codex/config.toml': '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "echo project-stop"\n' });
    const listing = await w.list();
    expect(listing.hooks.map((h) => [h.command, h.source.scope])).toEqual([['echo user-stop', 'user']]);
  });
});
