import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookWorld, type HookWorld } from './helpers';

/**
 * An attacker-controlled command against an approved guard: a PreToolUse hook with
 * `if: "Bash(git push *)"` (code.claude.com/docs/en/hooks, handler `if`) that blocks with exit 2.
 * Every spelling bash runs as `git push` — the ones Claude Code 2.1.318's own hook `if` fires on,
 * and the process wrappers its deny rules look through — must reach the hook through the real
 * runner (approval, digest check, child process); the others must not start it.
 */
async function guardWorld(): Promise<HookWorld> {
  const w = hookWorld();
  w.write({
    '.claude/settings.json': {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', if: 'Bash(git push *)', command: 'cat >> "$CLAUDE_PROJECT_DIR/guard.log"; echo >> "$CLAUDE_PROJECT_DIR/guard.log"; echo "push blocked" >&2; exit 2' }] }] },
    },
  });
  const { hooks } = await w.list();
  await w.engine.hooks.approve({ path: w.project }, hooks.map((h) => ({ id: h.id, digest: h.digest })));
  return w;
}

const bypassAttempts = [
  'git push origin main',
  'FOO=1 git push',
  'env FOO=1 git push',
  'git  push',
  '\\git push',
  '"git" push',
  "'git' 'push' --force",
  'true && git push',
  'git push; :',
  'ls\ngit push',
  '$(git push)',
  'echo `git push`',
  '(git push)',
  '{ git push; }',
  '! git push',
  'if :; then git push; fi',
  'command git push',
  'builtin git push',
  'exec git push',
  'timeout 5 git push',
  'nohup git push &',
  'sudo -E git push',
  'xargs git push < /dev/null',
  '/usr/bin/git push',
  'git pu\\\nsh',
  'f() { git push; }; f',
];

describe('an approved guard hook with if: "Bash(git push *)"', () => {
  it('blocks every form of the command bash runs as git push', async () => {
    const w = await guardWorld();
    for (const command of bypassAttempts) {
      const out = await w.engine.hooks.run('PreToolUse', { tool_name: 'Bash', tool_input: { command } }, { path: w.project });
      expect({ command, ran: out.results.map((r) => [r.skipped, r.exitCode]) }).toEqual({ command, ran: [[null, 2]] });
      expect(out.decision, command).toBe('deny');
    }
    const logged = fs.readFileSync(path.join(w.project, 'guard.log'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l).tool_input.command);
    expect(logged).toEqual(bypassAttempts);
  });

  it('does not start for commands that are not git push', async () => {
    const w = await guardWorld();
    for (const command of ['git pushx', 'git status', "echo 'git push'", '# git push', 'git stash push', 'ls -la']) {
      const out = await w.engine.hooks.run('PreToolUse', { tool_name: 'Bash', tool_input: { command } }, { path: w.project });
      expect({ command, results: out.results }).toEqual({ command, results: [] });
    }
    expect(fs.existsSync(path.join(w.project, 'guard.log'))).toBe(false);
  });
});
