/**
 * `.ci/run` on a fresh machine: it refuses to start without the shared corpus (so the real-input
 * tests never silently stop running) and hands node-gyp local Node headers (no nodejs.org).
 * The script runs from a copy in a temp folder with a temp HOME, so nothing of it can reach the
 * checkout or the user's git config.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/corpus';
import { tempDir } from '../../support/tempDir';

/** A clone-like folder `<base>/repo` holding only `.ci/`, and nothing beside it. */
function bareClone(): { base: string; repo: string } {
  const base = tempDir('atrium-ci-');
  const repo = path.join(base, 'repo');
  fs.cpSync(path.join(repoRoot, '.ci'), path.join(repo, '.ci'), { recursive: true });
  return { base, repo };
}

function runCi(repo: string, env: Record<string, string | undefined>) {
  const clean: Record<string, string | undefined> = { ...process.env, HOME: path.dirname(repo), CI: 'true', ...env };
  for (const [k, v] of Object.entries(clean)) if (v === undefined) delete clean[k];
  return spawnSync('bash', [path.join(repo, '.ci/run')], { cwd: repo, encoding: 'utf8', env: clean, timeout: 30_000 });
}

describe('.ci/run without the shared corpus', () => {
  it('exits 1 at once naming ../shared/corpus beside the clone, before installing or testing anything', () => {
    const { base, repo } = bareClone();
    const r = runCi(repo, { ATRIUM_SHARED_DIR: undefined });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(`ci: the shared corpus is missing: ${path.join(base, 'shared', 'corpus')} (no materialize.sh). CI runs the tests that need it; put the shared folder beside the checkout (../shared) or set ATRIUM_SHARED_DIR to it.`);
    expect(r.stdout).toBe('');
    expect(fs.readdirSync(repo)).toEqual(['.ci']);
  });

  it('names the ATRIUM_SHARED_DIR folder when that is set and holds no corpus', () => {
    const { base, repo } = bareClone();
    fs.mkdirSync(path.join(base, 'shared', 'corpus'), { recursive: true }); // ../shared exists, but the variable wins
    fs.writeFileSync(path.join(base, 'shared', 'corpus', 'materialize.sh'), '');
    const elsewhere = tempDir('atrium-ci-shared-');
    const r = runCi(repo, { ATRIUM_SHARED_DIR: elsewhere });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`the shared corpus is missing: ${path.join(elsewhere, 'corpus')} (no materialize.sh)`);
  });
});

describe('.ci/node-headers.sh (npm_config_nodedir for node-gyp)', () => {
  const script = path.join(repoRoot, '.ci/node-headers.sh');
  const withHeaders = (dir: string, files = ['node_api.h', 'common.gypi']) => {
    fs.mkdirSync(path.join(dir, 'include/node'), { recursive: true });
    for (const f of files) fs.writeFileSync(path.join(dir, 'include/node', f), '');
    return dir;
  };

  it('prints the first folder whose include/node has node_api.h and common.gypi; exits 1 when none does', () => {
    const base = tempDir('atrium-headers-');
    const partial = withHeaders(path.join(base, 'partial'), ['node_api.h']);
    const full = withHeaders(path.join(base, 'full'));
    const r = spawnSync('bash', [script, path.join(base, 'none'), partial, full], { encoding: 'utf8' });
    expect([r.status, r.stdout]).toEqual([0, `${full}\n`]);
    const none = spawnSync('bash', [script, path.join(base, 'none'), partial], { encoding: 'utf8' });
    expect([none.status, none.stdout]).toEqual([1, '']);
  });

  it('by default looks at the running node\'s prefix, then /usr and /usr/local', () => {
    const candidates = [path.resolve(process.execPath, '..', '..'), '/usr', '/usr/local'];
    const expected = candidates.find((d) => fs.existsSync(path.join(d, 'include/node/node_api.h')) && fs.existsSync(path.join(d, 'include/node/common.gypi')));
    const r = spawnSync('bash', [script], { encoding: 'utf8' });
    expect(r.status).toBe(expected ? 0 : 1);
    expect(r.stdout).toBe(expected ? `${expected}\n` : '');
  });
});
