import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';

describe('hooks and mcp subcommands refuse a DIR that exists nowhere (like trust status)', { timeout: 120_000 }, () => {
  it('exit 1 naming the missing folder, and no suggestion to trust it', () => {
    const root = tempDir('atrium-hooks-missing-');
    const home = path.join(root, 'home');
    fs.mkdirSync(path.join(home, 'src'), { recursive: true });
    const dataDir = path.join(root, 'data');
    const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir], { HOME: home, USERPROFILE: home });
    const missing = path.join(home, 'src', 'nonexistent-dir');
    const runs: string[][] = [
      ['hooks', 'list', missing],
      ['hooks', 'list', 'nonexistent-dir'],
      ['mcp', 'list', missing],
      ['hooks', 'approve', missing, 'some-id'],
      ['hooks', 'revoke', missing, 'some-id'],
      ['hooks', 'diff', missing, 'some-id'],
      ['hooks', 'runs', missing],
      ['hooks', 'history', missing],
      ['mcp', 'approve', missing, 'some-id'],
      ['mcp', 'revoke', missing, 'some-id'],
    ];
    for (const args of runs) {
      const run = cli(...args);
      expect({ args, status: run.status }).toEqual({ args, status: 1 });
      expect(run.stderr).toContain('does not exist, and no workspace has the id or name');
      expect(run.stdout + run.stderr).not.toContain('trust set');
    }
    const json = cli('hooks', 'list', missing, '--json');
    expect(json.status).toBe(1);
    expect(JSON.stringify(json.json)).toContain(`${missing} does not exist`);
  });
});
