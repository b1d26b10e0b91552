import { describe, expect, it } from 'vitest';
import { hookWorld, settingsWith } from './helpers';

describe('faithful parsing: schema mistakes make one hook invalid, the rest of the file still loads', () => {
  it('wrong-case event, unknown event, object where an array belongs, non-string matcher, missing type, bad timeout', async () => {
    const w = hookWorld();
    const text = JSON.stringify(
      {
        hooks: {
          preToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'echo wrong-case' }] }],
          BeforeSleep: [{ hooks: [{ type: 'command', command: 'echo unknown-event' }] }],
          Stop: { hooks: [{ type: 'command', command: 'echo object-not-array' }] },
          PostToolUse: [
            { matcher: {}, hooks: [{ type: 'command', command: 'echo matcher-object' }] },
            { hooks: [{ command: 'echo no-type' }, { type: 'command', command: 'echo bad-timeout', timeout: 'soon' }, { type: 'command', command: 'echo fine' }] },
          ],
        },
      },
      null,
      2,
    );
    w.write({ '.claude/settings.json': text });
    const { hooks } = await w.list();
    const byCommand = (c: string) => hooks.find((h) => h.command === c)!;
    expect(byCommand('echo wrong-case').state).toBe('invalid');
    expect(byCommand('echo wrong-case').warnings[0]).toMatchObject({ path: '.claude/settings.json', line: 3, fix: 'Rename the key to "PreToolUse".' });
    expect(byCommand('echo unknown-event').warnings[0].message).toMatch(/"BeforeSleep" is not a Claude Code hook event/);
    expect(byCommand('echo object-not-array').warnings[0].message).toMatch(/must be an array of matcher groups, not an object/);
    expect(byCommand('echo matcher-object').warnings[0].message).toMatch(/"matcher" must be a string, not an object/);
    expect(byCommand('echo no-type').warnings[0]).toMatchObject({ message: 'the handler has no "type"', fix: expect.stringContaining('"type": "command"') });
    expect(byCommand('echo bad-timeout').warnings[0].message).toMatch(/"timeout" must be a positive number of seconds/);
    for (const c of ['echo wrong-case', 'echo unknown-event', 'echo object-not-array', 'echo matcher-object', 'echo no-type', 'echo bad-timeout']) expect(byCommand(c).state).toBe('invalid');
    expect(byCommand('echo fine').state).toBe('unapproved');
    // invalid hooks cannot be approved
    await expect(w.engine.hooks.approve({ path: w.project }, [{ id: byCommand('echo wrong-case').id }])).rejects.toMatchObject({ code: 'HOOK_INVALID' });
  });

  it('a file that does not parse is a warning with line, column and fix; other files still load', async () => {
    const w = hookWorld();
    w.write({ '.claude/settings.json': '{\n  "hooks": {\n    "Stop": [ }\n}', '.codex/hooks.json': settingsWith('Stop', { type: 'command', command: 'echo codex' }) });
    const listing = await w.list();
    expect(listing.warnings[0]).toMatchObject({ path: '.claude/settings.json', line: 3, message: expect.stringMatching(/invalid JSON at line 3, column \d+/) });
    expect(listing.hooks.map((h) => h.command)).toEqual(['echo codex']);
  });

  it('reads every source with its scope and format; Gemini timeouts are milliseconds; settings.local.json is local', async () => {
    const w = hookWorld();
    w.write({ '.claude/settings.json': settingsWith('Stop', { type: 'command', command: 'echo user' }) }, w.home);
    w.write({ '.codex/hooks.json': settingsWith('Stop', { type: 'command', command: 'echo user-codex' }) }, w.home);
    w.write({
      '.claude/settings.json': settingsWith('Stop', { type: 'command', command: 'echo project' }),
      '.claude/settings.local.json': settingsWith('Stop', { type: 'command', command: 'echo local' }),
      '.codex/hooks.json': settingsWith('Stop', { type: 'command', command: 'echo codex', timeout: 30 }),
      '.gemini/settings.json': '// comments are allowed\n' + JSON.stringify(settingsWith('BeforeTool', { type: 'command', command: 'echo gemini', timeout: 5000, name: 'g' }, 'run_shell_command')),
      '.blade/settings.local.json': { hooks: { enabled: true, PreToolUse: [{ matcher: { tools: 'Edit' }, hooks: [{ type: 'command', command: 'echo blade' }] }] } },
    });
    const { hooks } = await w.list();
    const at = (c: string) => hooks.find((h) => h.command === c)!;
    expect(at('echo user').source).toMatchObject({ scope: 'user', file: '.claude/settings.json', format: 'claude' });
    expect(at('echo user-codex').source).toMatchObject({ scope: 'user', format: 'codex' });
    expect(at('echo project').source.scope).toBe('project');
    expect(at('echo local').source.scope).toBe('local');
    expect(at('echo codex')).toMatchObject({ timeout: 30, timeoutMs: 30_000, source: { format: 'codex' } });
    expect(at('echo gemini')).toMatchObject({ event: 'BeforeTool', runsOn: 'PreToolUse', timeoutMs: 5000, name: 'g', matcher: 'run_shell_command' });
    expect(at('echo blade')).toMatchObject({ matcher: 'tools=Edit', state: 'unapproved', source: { format: 'blade', scope: 'local' } });
    expect(at('echo project').timeoutMs).toBe(600_000);
  });

  it('honours the user\'s disableAllHooks over the repository\'s, and Blade\'s enabled flag', async () => {
    const w = hookWorld();
    w.write({ '.claude/settings.json': { disableAllHooks: true, ...settingsWith('Stop', { type: 'command', command: 'echo user' }) } }, w.home);
    w.write({ '.blade/settings.json': { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo blade' }] }] } } });
    let listing = await w.list();
    expect(listing.disableAllHooks).toEqual({ value: true, file: '~/.claude/settings.json', scope: 'user' });
    expect(listing.hooks.find((h) => h.command === 'echo user')!.state).toBe('disabled');
    expect(listing.hooks.find((h) => h.command === 'echo blade')!.state).toBe('disabled');
    w.write({ '.claude/settings.json': { disableAllHooks: false }, '.blade/settings.local.json': { hooks: { enabled: true } } });
    listing = await w.list();
    // a repository's false does not undo the user's true
    expect(listing.disableAllHooks).toEqual({ value: true, file: '~/.claude/settings.json', scope: 'user' });
    expect(listing.hooks.find((h) => h.command === 'echo user')!.state).toBe('disabled');
    expect(listing.hooks.find((h) => h.command === 'echo blade')!.state).toBe('unapproved');
  });

  it('warns about matchers that can never match and "if" on events without tools', async () => {
    const w = hookWorld();
    w.write({
      '.claude/settings.json': {
        hooks: {
          PreToolUse: [
            { matcher: 'Bash(git commit*)', hooks: [{ type: 'command', command: 'echo permission-matcher' }] },
            { matcher: '^Bsh$', hooks: [{ type: 'command', command: 'echo regex-no-tool' }] },
            { matcher: 'mcp__memory', hooks: [{ type: 'command', command: 'echo server-only' }] },
            { matcher: '(', hooks: [{ type: 'command', command: 'echo bad-regex' }] },
          ],
          PostToolUse: [
            {
              hooks: [
                { type: 'command', command: 'echo star-and-prefix', if: 'Bash(git push*:*)' },
                { type: 'command', command: 'echo prefix-in-middle', if: 'Bash(npm:* test)' },
                { type: 'command', command: 'echo fine-prefix', if: 'Bash(git push:*)' },
              ],
            },
          ],
          Stop: [{ hooks: [{ type: 'command', command: 'echo if-on-stop', if: 'Bash(ls)' }] }],
        },
      },
    });
    const { hooks } = await w.list();
    const w1 = (c: string) => hooks.find((h) => h.command === c)!;
    expect(w1('echo permission-matcher').warnings[0]).toMatchObject({ message: expect.stringMatching(/permission-rule syntax, which never matches/), fix: expect.stringContaining('"if": "Bash(git commit*)"') });
    expect(w1('echo regex-no-tool').warnings[0].message).toMatch(/matches no known tool name/);
    expect(w1('echo server-only').warnings[0].message).toMatch(/names an MCP server, not a tool/);
    expect(w1('echo bad-regex').state).toBe('invalid');
    expect(w1('echo if-on-stop').warnings[0].message).toMatch(/"if" only works on tool events/);
    // Claude Code 2.1.318's own Bash rule validation: `*` with a trailing `:*` is literal; `:*` before the end is a wildcard
    expect(w1('echo star-and-prefix').warnings[0]).toMatchObject({ message: expect.stringMatching(/mixes \* with the trailing :\* prefix form/), fix: expect.stringContaining('Bash(git push*)') });
    expect(w1('echo prefix-in-middle').warnings[0].message).toMatch(/has :\* before the end/);
    expect(w1('echo fine-prefix').warnings).toEqual([]);
  });

  it('never throws on odd shapes: every one becomes a warning or an invalid hook', async () => {
    const shapes: Array<string | object> = [
      { hooks: [] },
      { hooks: 'PreToolUse' },
      { hooks: { Stop: [null, 5, 'x', []] } },
      { hooks: { Stop: [{ hooks: [null, { type: 42 }, { type: 'command', command: ['a'] }, { type: 'http' }, { type: 'command', command: 'x', args: [1] }] }] } },
      { hooks: { Stop: [{ matcher: 7, hooks: 'nope' }] } },
      { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'x', if: 42 }, { type: 'command', command: 'y', shell: 'fish' }, { type: 'command', command: 'z', env: { A: 1 } }] }] } },
      [],
      'just a string',
    ];
    for (const shape of shapes) {
      const w = hookWorld();
      w.write({ '.claude/settings.json': shape, '.codex/hooks.json': shape, '.gemini/settings.json': shape, '.blade/settings.json': shape });
      const listing = await w.list();
      for (const h of listing.hooks) {
        if (h.state === 'invalid') expect(h.warnings.length).toBeGreaterThan(0);
        expect(h.digest).toMatch(/^sha256:/);
      }
      expect(listing.warnings.length + listing.hooks.length).toBeGreaterThan(0);
      for (const warning of [...listing.warnings, ...listing.hooks.flatMap((h) => h.warnings)]) expect(warning.path).toMatch(/settings\.json|hooks\.json/);
      await w.engine.close();
    }
  });
});
