import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { TrustReview } from '../../../src/shared/contract';
import { listWorkspaceFiles } from '../../../src/main/core/files/listWorkspaceFiles';
import { directFileAccess, WorkspaceScan } from '../../../src/main/core/files/scan';
import { reviewFolder } from '../../../src/main/core/trust/review/review';
import { tempDir } from '../../support/tempDir';
import { writeFiles } from './helpers';

// every listing anywhere in the engine is counted, not only those through the test's scan
vi.mock('../../../src/main/core/files/listWorkspaceFiles', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/main/core/files/listWorkspaceFiles')>();
  return { ...actual, listWorkspaceFiles: vi.fn(actual.listWorkspaceFiles) };
});
const allListings = () => vi.mocked(listWorkspaceFiles).mock.calls.length;
const realReadFile = fs.promises.readFile.bind(fs.promises);

/** A review without its timings. */
const stable = (r: TrustReview) => ({ ...r, reviewedAt: '', durationMs: 0 });

/** A git work tree with nested skills (one of them tracked but deleted from disk), rules, hooks, MCP and a plugin. */
function fixture(): string {
  const dir = tempDir('atrium-review-scan-');
  execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '-q', dir]);
  writeFiles(dir, {
    'CLAUDE.md': '# Project\n',
    '.claude/rules/style.md': '---\npaths: "src/**"\n---\nStrict.\n',
    '.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploys\n---\nRun it.\n',
    'apps/web/.claude/skills/lint/SKILL.md': '---\nname: lint\ndescription: Lints\n---\nRun eslint.\n',
    'apps/old/.claude/skills/gone/SKILL.md': '---\nname: gone\ndescription: Gone\n---\nx\n',
    '.claude/settings.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo done' }] }] } }),
    '.mcp.json': JSON.stringify({ mcpServers: { local: { command: 'node', args: ['s.js'] } } }),
    'plugins/tools/.claude-plugin/plugin.json': JSON.stringify({ name: 'tools' }),
    'plugins/tools/hooks/hooks.json': JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo pre' }] }] } }),
    'sub/.gemini/settings.json': JSON.stringify({ hooks: {} }),
  });
  execFileSync('git', ['add', 'apps/old'], { cwd: dir });
  fs.rmSync(path.join(dir, 'apps/old/.claude/skills/gone/SKILL.md'));
  return dir;
}

describe('the trust review lists the tree once', () => {
  it('its walk and the extension discovery share one listing; no file is read twice; the answer is unchanged', async () => {
    const dir = fixture();
    const homeDir = tempDir('atrium-home-');
    const context = { trustRoot: dir, state: 'undecided' as const, homeDir };

    // the review as it was: the walk and the discovery each listing and reading on their own
    const before = allListings();
    const unshared = await reviewFolder(dir, { ...context, files: directFileAccess });
    expect(allListings() - before).toBe(2);

    const reads = new Map<string, number>();
    let listings = 0;
    const files = new WorkspaceScan({
      root: dir,
      verifyExistence: true,
      lister: (root, options) => {
        listings++;
        return listWorkspaceFiles(root, options);
      },
      reader: (absolute) => {
        reads.set(absolute, (reads.get(absolute) ?? 0) + 1);
        return realReadFile(absolute);
      },
    });
    const start = allListings();
    const shared = await reviewFolder(dir, { ...context, files });
    expect(allListings() - start).toBe(1);
    expect(listings).toBe(1);
    expect([...reads].filter(([, n]) => n > 1)).toEqual([]);
    expect([...reads.keys()]).toEqual(expect.arrayContaining([path.join(dir, 'CLAUDE.md'), path.join(dir, 'apps/web/.claude/skills/lint/SKILL.md'), path.join(dir, '.claude/settings.json')]));
    expect(stable(shared)).toEqual(stable(unshared));
    expect(shared.items.map((i) => i.path)).toEqual(expect.arrayContaining(['apps/web/.claude/skills/lint/SKILL.md', 'plugins/tools/hooks/hooks.json']));

    // the default review makes its own scan: one listing too
    const third = allListings();
    const byDefault = await reviewFolder(dir, context);
    expect(allListings() - third).toBe(1);
    expect(stable(byDefault)).toEqual(stable(unshared));
  });
});
