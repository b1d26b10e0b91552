import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/corpus';
import { fixtureWorkspace } from '../../support/fixtures';
import { tempDir } from '../../support/tempDir';

describe('atrium output into a pipe that closes early (e.g. `| head -1`)', { timeout: 120_000 }, () => {
  it('stops quietly with exit 0 instead of an EPIPE stack trace', async () => {
    const dir = fixtureWorkspace('links-as-text'); // the project's own fixture: runs without the shared corpus
    const dataDir = path.join(tempDir('atrium-pipe-'), 'data');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'src/main/cli/entry.ts'), 'trust', 'review', dir, '--data-dir', dataDir], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.destroy(); // the reader is gone before the first line is written
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(stderr).not.toMatch(/EPIPE|Error:/);
    expect(code).toBe(0);
  });
});
