import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adoptLoginShellPath, loginShellSkipReason, mergePaths, parseMarkedValue, readLoginShellPath } from '../../../src/main/loginShellPath';
import { tempDir } from '../../support/tempDir';

/**
 * The desktop app reads the login shell's PATH at start (a GUI launch gets launchd's minimal PATH
 * on macOS, without nvm's, Homebrew's or Volta's Node). The shells here are real child processes:
 * scripts in a temp dir that behave like rc files that print, hang or fail.
 */

/** An executable shell stand-in: `body` runs with the command Atrium passes as "$2" (after `-ilc`). */
function fakeShell(body: string, name = 'fakesh'): string {
  const file = path.join(tempDir('atrium-shell-'), name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

describe('parseMarkedValue', () => {
  it('takes what lies between the first two markers, ignoring what rc files print around them', () => {
    expect(parseMarkedValue('Welcome!\nlast login: today\nMKMK/opt/node/bin:/usr/binMKMK\nbye\n', 'MKMK')).toBe('/opt/node/bin:/usr/bin');
    expect(parseMarkedValue('MKa:bMKMKc:dMK', 'MK')).toBe('a:b');
  });

  it('gives null without two markers, for an empty value, and for a value across lines', () => {
    expect(parseMarkedValue('no markers here', 'MK')).toBeNull();
    expect(parseMarkedValue('MK/usr/bin', 'MK')).toBeNull();
    expect(parseMarkedValue('MKMK', 'MK')).toBeNull();
    expect(parseMarkedValue('MK/usr/bin\nrm -rf /MK', 'MK')).toBeNull();
  });
});

describe('mergePaths', () => {
  it('puts the login entries first, keeps the current ones it lacks, drops duplicates, empties and relative login entries', () => {
    expect(mergePaths('/home/u/.nvm/versions/node/v22/bin:/usr/bin:.:bin::/usr/bin', '/usr/bin:/bin:/usr/sbin', ':')).toBe('/home/u/.nvm/versions/node/v22/bin:/usr/bin:/bin:/usr/sbin');
    expect(mergePaths('/opt/homebrew/bin', undefined, ':')).toBe('/opt/homebrew/bin');
  });
});

describe('loginShellSkipReason', () => {
  it('reads the login shell only for a GUI launch off Windows, unless ATRIUM_SKIP_SHELL_ENV=1', () => {
    expect(loginShellSkipReason({}, 'darwin', false)).toBeNull();
    expect(loginShellSkipReason({}, 'linux', false)).toBeNull();
    expect(loginShellSkipReason({}, 'win32', false)).toBe('Windows');
    expect(loginShellSkipReason({ ATRIUM_SKIP_SHELL_ENV: '1' }, 'darwin', false)).toBe('ATRIUM_SKIP_SHELL_ENV=1');
    expect(loginShellSkipReason({ ATRIUM_SKIP_SHELL_ENV: '0' }, 'darwin', false)).toBeNull();
    expect(loginShellSkipReason({}, 'darwin', true)).toBe('started from a terminal');
  });
});

describe('readLoginShellPath (real child processes)', () => {
  it('runs the shell as an interactive login shell without a terminal and reads PATH through its noise', async () => {
    const record = path.join(tempDir('atrium-shell-rec-'), 'args');
    // like an rc file: prints a banner, sets PATH, then the command runs in a real sh; stdin must not be a terminal
    const shell = fakeShell(
      `printf '%s\\n' "$1" "$ATRIUM_RESOLVING_ENVIRONMENT" "$(test -t 0 && echo tty || echo notty)" > '${record}'\necho 'Welcome to your shell'\nPATH=/home/u/.volta/bin:/usr/bin\nexport PATH\neval "$2"\necho 'logout'`,
    );
    await expect(readLoginShellPath(shell)).resolves.toEqual({ path: '/home/u/.volta/bin:/usr/bin' });
    expect(fs.readFileSync(record, 'utf8').split('\n').slice(0, 3)).toEqual(['-ilc', '1', 'notty']);
  });

  it('gives up on a shell that hangs, killing it, within the timeout', async () => {
    const pidFile = path.join(tempDir('atrium-shell-pid-'), 'pid');
    const shell = fakeShell(`echo $$ > '${pidFile}'\nsleep 30`);
    const started = Date.now();
    const result = await readLoginShellPath(shell, { timeoutMs: 500 });
    expect(result).toEqual({ error: `${shell} did not answer within 0.5 s` });
    expect(Date.now() - started).toBeLessThan(5000);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    await expect.poll(() => {
      try {
        process.kill(pid, 0);
        return 'alive';
      } catch {
        return 'gone';
      }
    }).toBe('gone');
  });

  it('reports a shell that prints no PATH, fails, or does not exist', async () => {
    await expect(readLoginShellPath(fakeShell('echo "no markers"; exit 3'))).resolves.toEqual({ error: expect.stringMatching(/printed no PATH \(exit code 3\)$/) });
    const missing = path.join(tempDir(), 'no-such-shell');
    await expect(readLoginShellPath(missing)).resolves.toEqual({ error: expect.stringContaining(`${missing} could not be started`) });
  });

  it('passes csh-family shells -ic (they refuse -l with other flags)', async () => {
    const record = path.join(tempDir('atrium-shell-rec-'), 'args');
    const shell = fakeShell(`echo "$1" > '${record}'\neval "$2"`, 'tcsh');
    await expect(readLoginShellPath(shell)).resolves.toHaveProperty('path');
    expect(fs.readFileSync(record, 'utf8').trim()).toBe('-ic');
  });
});

describe('adoptLoginShellPath', () => {
  const tty = { stdin: process.stdin.isTTY, stdout: process.stdout.isTTY };
  const asGuiLaunch = async (run: () => Promise<void>) => {
    // a GUI launch has no terminal on stdin or stdout
    process.stdin.isTTY = false;
    process.stdout.isTTY = false;
    try {
      await run();
    } finally {
      process.stdin.isTTY = tty.stdin;
      process.stdout.isTTY = tty.stdout;
    }
  };

  it('merges the login PATH of $SHELL into the environment', async () => {
    const env: NodeJS.ProcessEnv = { SHELL: fakeShell('PATH=/opt/homebrew/bin:/usr/bin\neval "$2"'), PATH: '/usr/bin:/bin' };
    const logged: string[] = [];
    await asGuiLaunch(() => adoptLoginShellPath(env, (l) => logged.push(l)));
    expect(env.PATH).toBe('/opt/homebrew/bin:/usr/bin:/bin');
    expect(logged).toEqual([]);
  });

  it('keeps PATH and logs one line when the shell fails; does nothing when skipped', async () => {
    const failing: NodeJS.ProcessEnv = { SHELL: fakeShell('exit 1'), PATH: '/usr/bin:/bin' };
    const logged: string[] = [];
    await asGuiLaunch(() => adoptLoginShellPath(failing, (l) => logged.push(l)));
    expect(failing.PATH).toBe('/usr/bin:/bin');
    expect(logged).toEqual([`[atrium] kept the PATH Atrium was started with: could not read the login shell's PATH (${failing.SHELL} printed no PATH (exit code 1)).`]);

    const marker = path.join(tempDir(), 'ran');
    const skipped: NodeJS.ProcessEnv = { SHELL: fakeShell(`touch '${marker}'\nPATH=/elsewhere\neval "$2"`), PATH: '/usr/bin', ATRIUM_SKIP_SHELL_ENV: '1' };
    await asGuiLaunch(() => adoptLoginShellPath(skipped, () => {}));
    expect(skipped.PATH).toBe('/usr/bin');
    expect(fs.existsSync(marker)).toBe(false);
  });
});
