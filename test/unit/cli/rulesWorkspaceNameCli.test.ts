import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';

describe('atrium rules DIR takes a workspace id or display name, as trust and hooks do (real child process)', { timeout: 180_000 }, () => {
  it('list, explain and lint resolve a unique display name (any case) and an id to the workspace folder', () => {
    const dataDir = tempDir('atrium-cli-');
    const folder = path.join(tempDir(), 'proj');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'AGENTS.md'), '# Rules\n\nBe kind.\n');
    const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir, '--json']);
    const { workspace } = cli('workspace', 'add', folder, '--name', 'Kiblet Rules Trial').json as { workspace: { id: string } };

    const listed = cli('rules', 'list', 'Kiblet Rules Trial');
    expect(listed.stderr).toBe('');
    expect(listed.status).toBe(0);
    expect(listed.json).toMatchObject({ root: folder, files: [expect.objectContaining({ path: 'AGENTS.md' })] });
    expect(cli('rules', 'list', 'kiblet rules trial').json).toMatchObject({ root: folder });
    expect(cli('rules', 'list', workspace.id).json).toMatchObject({ root: folder });

    const explained = cli('rules', 'explain', 'Kiblet Rules Trial', '--path', 'src/a.ts');
    expect(explained.status).toBe(0);
    expect(explained.json).toMatchObject({ root: folder, targetPath: 'src/a.ts' });

    const linted = cli('rules', 'lint', 'Kiblet Rules Trial');
    expect(linted.status).toBe(0);
    expect(linted.json).toMatchObject({ root: folder });
  });

  it('a name that is neither a folder nor a workspace gets the trust/hooks wording, for every rules subcommand', () => {
    const dataDir = tempDir('atrium-cli-');
    for (const args of [['list'], ['explain', '--path', 'a.ts'], ['lint']]) {
      const [sub, ...rest] = args;
      const res = runCli(['rules', sub, 'No Such Workspace Zq', ...rest, '--data-dir', dataDir]);
      expect(res.status).toBe(1);
      expect(res.stderr).toContain('does not exist, and no workspace has the id or name "No Such Workspace Zq". Check the path, or see the workspaces with: atrium workspace list');
      expect(res.stderr).not.toContain('Check the spelling');
    }
  });
});
