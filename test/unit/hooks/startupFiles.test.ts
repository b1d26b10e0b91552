import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand, shellFor } from '../../../src/main/core/hooks/runCommand';
import { tempDir } from '../../support/tempDir';
import { hookWorld } from './helpers';

/**
 * A hook's shell must read no startup file: not the user's (~/.bashrc, ~/.bash_profile, ~/.profile),
 * not the repository's (a `.bashrc` that `HOME=.` would select), not `$BASH_ENV`/`$ENV`. Each
 * startup file here writes a marker and prints text that would break the hook's JSON answer.
 */
function startupFiles(dir: string, tag: string, markers: string): void {
  for (const name of ['.bashrc', '.bash_profile', '.profile', 'env.sh']) {
    fs.writeFileSync(path.join(dir, name), `echo "PROFILE-OUTPUT ${tag}${name}"\ntouch "${markers}/${tag}${name}"\n`);
  }
}

function setup() {
  const root = tempDir('atrium-startup-');
  const home = path.join(root, 'home');
  const repo = path.join(root, 'repo');
  const markers = path.join(root, 'markers');
  for (const d of [home, repo, markers]) fs.mkdirSync(d);
  startupFiles(home, 'home', markers);
  startupFiles(repo, 'repo', markers);
  return { root, home, repo, markers };
}

const answer = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'from the hook' } });
const run = (cwd: string, env: Record<string, string>, command: string, args?: string[]) =>
  runCommand({ command, args, cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, input: '{"tool_name":"Bash"}', timeoutMs: 10_000 });

describe('command hooks read no shell startup file', () => {
  it('a hook run through the engine: ~/.bashrc does not run and the JSON answer stays intact', async () => {
    const w = hookWorld();
    const markers = path.join(w.root, 'markers');
    fs.mkdirSync(markers);
    startupFiles(w.home, 'home', markers);
    startupFiles(w.project, 'repo', markers);
    w.write({ '.claude/settings.json': { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `cat >/dev/null; echo '${answer}'` }] }] } } });
    const h = (await w.list()).hooks[0];
    await w.engine.hooks.approve({ path: w.project }, [{ id: h.id, digest: h.digest }]);
    const out = await w.engine.hooks.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }, { path: w.project });
    expect(out.results[0]).toMatchObject({ exitCode: 0, stdout: `${answer}\n` });
    expect(out).toMatchObject({ decision: 'deny', reason: 'from the hook' });
    expect(fs.readdirSync(markers)).toEqual([]);
  });

  it('bash -c with HOME at the repository, BASH_ENV and ENV set: no marker, stdout is only the answer', async () => {
    const { home, repo, markers } = setup();
    for (const h of [home, repo]) {
      const [file, argv] = shellFor(undefined, `cat >/dev/null; echo '${answer}'`);
      expect(file).toBe('/bin/bash');
      const r = await run(repo, { HOME: h, BASH_ENV: path.join(repo, 'env.sh'), ENV: path.join(repo, 'env.sh') }, file, argv);
      expect(r).toMatchObject({ exitCode: 0, stdout: `${answer}\n`, stderr: '' });
    }
    // the shell form through runCommand itself
    const r = await runCommand({ command: `echo "$BASH_ENV|$ENV"; echo '${answer}'`, cwd: repo, env: { PATH: process.env.PATH!, HOME: '.', BASH_ENV: 'env.sh', ENV: 'env.sh' }, input: '{}', timeoutMs: 10_000 });
    expect(r).toMatchObject({ exitCode: 0, stdout: `|\n${answer}\n` });
    expect(fs.readdirSync(markers)).toEqual([]);
  });

  it('stdin is never a socket, so a bash the hook starts itself (exec form, no --norc) does not source ~/.bashrc either', async () => {
    const { home, repo, markers } = setup();
    const probe = '[ -S /dev/stdin ] && echo socket || echo not-a-socket; cat';
    const r = await run(repo, { HOME: home }, '/bin/bash', ['-c', probe]);
    expect(r).toMatchObject({ exitCode: 0, stdout: 'not-a-socket\n{"tool_name":"Bash"}' });
    const viaHomeRepo = await run(repo, { HOME: '.' }, '/bin/bash', ['-c', probe]);
    expect(viaHomeRepo.stdout).toBe('not-a-socket\n{"tool_name":"Bash"}');
    expect(fs.readdirSync(markers)).toEqual([]);
    // the input file is unlinked before the hook starts: nothing of it is left behind
    const leftover = await run(repo, { HOME: home }, '/bin/bash', ['-c', 'readlink /proc/self/fd/0']);
    expect(leftover.stdout).toMatch(/\(deleted\)\n$/);
  });

  it('the sh fallback (no /bin/bash) and PowerShell read no profile', async () => {
    const { home, repo, markers } = setup();
    const [file, argv] = shellFor(undefined, `cat >/dev/null; echo '${answer}'`, null);
    expect([file, argv.slice(0, -1)]).toEqual(['/bin/sh', ['-c']]);
    const r = await run(repo, { HOME: home, ENV: path.join(home, '.profile') }, file, argv);
    expect(r).toMatchObject({ exitCode: 0, stdout: `${answer}\n` });
    expect(fs.readdirSync(markers)).toEqual([]);
    const [pwsh, pargs] = shellFor('powershell', 'Write-Output 1');
    expect(pwsh).toBe(process.platform === 'win32' ? 'powershell.exe' : 'pwsh');
    expect(pargs).toEqual(['-NoProfile', '-NonInteractive', '-Command', 'Write-Output 1']);
  });
});
