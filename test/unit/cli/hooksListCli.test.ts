import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';

describe('atrium hooks list, human text (real child process)', { timeout: 120_000 }, () => {
  it('prints each "not covered by the digest" entry once, and the if rule delimited from the command', () => {
    const root = tempDir('atrium-hooks-list-');
    const home = path.join(root, 'home');
    const dir = path.join(home, 'src', 'proj');
    fs.mkdirSync(path.join(dir, '.claude'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, '.claude/settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: 'npx -y cowsay hi' }] },
            // an unclosed if rule: Claude Code's `if` is a permission rule like Bash(git push *)
            { matcher: 'Bash', hooks: [{ type: 'command', if: 'Bash(git push', command: 'echo broken >&2; exit 2' }] },
          ],
        },
      }),
    );
    const cli = (...args: string[]) => runCli([...args, '--data-dir', path.join(root, 'data')], { HOME: home });
    expect(cli('trust', 'set', dir, 'trusted').status).toBe(0);
    const listed = cli('hooks', 'list', dir);
    expect(listed.status).toBe(0);
    const lines = listed.stdout.split('\n');
    const notCovered = lines.filter((l) => l.includes('not covered by the digest: npx -y cowsay hi'));
    expect(notCovered.length).toBeGreaterThan(0);
    expect(notCovered.every((l) => l.trimStart().startsWith('✗ '))).toBe(true);
    expect(new Set(notCovered).size).toBe(notCovered.length);
    expect(listed.stdout).toContain('if "Bash(git push" echo broken >&2; exit 2');
  });
});
