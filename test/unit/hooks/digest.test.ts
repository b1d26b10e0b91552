import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson, digestOf, sha256Hex } from '../../../src/main/core/formats/canonicalJson';
import { hookWorld, settingsWith } from './helpers';

describe('canonical JSON and the digest format', () => {
  it('sorts keys recursively, drops undefined, keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: undefined, x: 2 }], c: undefined } })).toBe('{"a":{"d":[3,{"x":2,"z":1}]},"b":1}');
    expect(canonicalJson([undefined, 1])).toBe('[null,1]');
    expect(digestOf({ a: 1 })).toBe(`sha256:${sha256Hex('{"a":1}')}`);
    expect(digestOf({ a: 1, b: 2 })).toBe(digestOf({ b: 2, a: 1 }));
  });
});

describe('hook digests: stability and sensitivity', () => {
  const script = '#!/usr/bin/env bash\nexit 0\n';
  const handler = { type: 'command', command: 'bash .claude/hooks/check.sh', timeout: 30 };

  async function digestFor(settings: object | string, files: Record<string, string> = { '.claude/hooks/check.sh': script }): Promise<string> {
    const w = hookWorld();
    w.write({ '.claude/settings.json': settings, ...files });
    const { hooks } = await w.list();
    expect(hooks).toHaveLength(1);
    await w.engine.close();
    return hooks[0].digest;
  }

  it('is the same for the same hook in two folders, and for reordered keys or other formatting', async () => {
    const base = await digestFor(settingsWith('PreToolUse', handler, 'Bash'));
    expect(base).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await digestFor(settingsWith('PreToolUse', handler, 'Bash'))).toBe(base);
    const reordered = JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ timeout: 30, command: handler.command, type: 'command' }], matcher: 'Bash' }] } });
    expect(await digestFor(reordered)).toBe(base);
    expect(await digestFor(JSON.stringify(settingsWith('PreToolUse', handler, 'Bash')))).toBe(base);
  });

  it('changes with one byte of the command, the matcher, the timeout or the script', async () => {
    const base = await digestFor(settingsWith('PreToolUse', handler, 'Bash'));
    const variants = [
      await digestFor(settingsWith('PreToolUse', { ...handler, command: 'bash  .claude/hooks/check.sh' }, 'Bash')),
      await digestFor(settingsWith('PreToolUse', handler, 'Bask')),
      await digestFor(settingsWith('PreToolUse', { ...handler, timeout: 31 }, 'Bash')),
      await digestFor(settingsWith('PreToolUse', handler, 'Bash'), { '.claude/hooks/check.sh': script.replace('exit 0', 'exit 1') }),
      await digestFor(settingsWith('PreToolUse', { ...handler, if: 'Bash(git *)' }, 'Bash')),
      await digestFor(settingsWith('PostToolUse', handler, 'Bash')),
    ];
    for (const v of variants) expect(v).not.toBe(base);
    expect(new Set(variants).size).toBe(variants.length);
  });

  it('lists the scripts a command runs, with $CLAUDE_PROJECT_DIR, relative paths and interpreters; a file outside is hashed and flagged', async () => {
    const w = hookWorld();
    const outside = path.join(w.root, 'elsewhere.sh');
    fs.writeFileSync(outside, 'echo outside\n');
    w.write({
      '.claude/settings.json': {
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                { type: 'command', command: 'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/a.sh' },
                { type: 'command', command: '${CLAUDE_PROJECT_DIR}/.claude/hooks/b.sh --flag' },
                { type: 'command', command: 'python3 .claude/hooks/c.py && node tools/d.js > /tmp/never-hashed.log' },
                { type: 'command', command: `bash ${outside}` },
                { type: 'command', command: 'echo a.sh is not run; cat .claude/hooks/a.sh' },
                { type: 'command', command: 'node', args: ['${CLAUDE_PROJECT_DIR}/tools/d.js'] },
              ],
            },
          ],
        },
      },
      '.claude/hooks/a.sh': 'a',
      '.claude/hooks/b.sh': 'b',
      '.claude/hooks/c.py': 'c',
      'tools/d.js': 'd',
    });
    const { hooks } = await w.list();
    const scripts = hooks.map((h) => h.scripts.map((s) => [s.path, s.outsideWorkspace]));
    expect(scripts).toEqual([
      [['.claude/hooks/a.sh', false]],
      [['.claude/hooks/b.sh', false]],
      [['.claude/hooks/c.py', false], ['tools/d.js', false]],
      [[outside, true]],
      [],
      [['tools/d.js', false]],
    ]);
    expect(hooks[0].scripts[0].sha256).toBe(sha256Hex('a'));
    expect(hooks[3].danger.map((d) => d.code)).toContain('outside-script');
    // the outside file is part of the digest too
    const before = hooks[3].digest;
    fs.writeFileSync(outside, 'echo changed\n');
    expect((await w.list()).hooks[3].digest).not.toBe(before);
  });

  it('expands ${CLAUDE_PLUGIN_ROOT} for plugin hooks and hashes both scripts of one command', async () => {
    const w = hookWorld();
    w.write({
      'plugins/guard/.claude-plugin/plugin.json': { name: 'guard' },
      'plugins/guard/hooks/hooks.json': { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'bash "${CLAUDE_PLUGIN_ROOT}/hooks/run.sh" "${CLAUDE_PLUGIN_ROOT}/hooks/check.py"' }] }] } },
      'plugins/guard/hooks/run.sh': 'run',
      'plugins/guard/hooks/check.py': 'check',
    });
    const { hooks } = await w.list();
    expect(hooks).toHaveLength(1);
    expect(hooks[0].source).toMatchObject({ scope: 'plugin', file: 'plugins/guard/hooks/hooks.json', plugin: 'guard' });
    expect(hooks[0].scripts.map((s) => s.path)).toEqual(['plugins/guard/hooks/run.sh', 'plugins/guard/hooks/check.py']);
    expect(hooks[0].definition.source).toEqual({ scope: 'plugin', file: 'plugins/guard/hooks/hooks.json', plugin: 'guard' });
  });
});
