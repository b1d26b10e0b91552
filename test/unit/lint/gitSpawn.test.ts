import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/corpus';

// Proves the lint rules that keep git behind the hardened runner can fail: the snippets `npm run lint` would reject.
const eslint = new ESLint({ cwd: repoRoot });
const messages = async (file: string, code: string, rule: string) => {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return result.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
};
const gitSpawns = (file: string, code: string) => messages(file, code, 'no-restricted-syntax');
const childProcessImports = (file: string, code: string) => messages(file, code, 'no-restricted-imports');

describe('git is run only through the hardened runner (eslint)', () => {
  it('rejects every spawn of a literal git outside runGit.ts, in the engine, the shell, scripts and bin', async () => {
    const forms = [
      "import { execFile } from 'node:child_process';\nexecFile('git', ['status'], () => undefined);\n",
      "import { execFileSync } from 'node:child_process';\nexport const a = execFileSync('git', ['rev-parse']);\n",
      "import { spawn } from 'node:child_process';\nexport const a = spawn('git', ['ls-files']);\n",
      "import { spawnSync } from 'node:child_process';\nexport const a = spawnSync(`git`, ['ls-files']);\n",
      "import { exec } from 'node:child_process';\nexport const a = exec('git status', () => undefined);\n",
      "import { execSync } from 'node:child_process';\nexport const a = execSync('git');\n",
      "import cp from 'node:child_process';\nexport const a = cp.spawn('git', ['worktree', 'add']);\n",
      "import { execFile } from 'node:child_process';\nimport { promisify } from 'node:util';\nconst execFileAsync = promisify(execFile);\nexport const a = execFileAsync('git', ['check-ignore']);\n",
      "import { spawn } from 'node:child_process';\nexport const a = spawn('GIT.EXE', []);\n",
    ];
    for (const code of forms) {
      expect(await gitSpawns('src/main/core/sessions/supervisor.ts', code), code).toEqual([expect.stringContaining('only through runGit')]);
    }
    for (const file of ['src/main/core/files/x.ts', 'src/main/x.ts', 'src/main/server/x.ts', 'scripts/x.mjs', 'bin/x.js', 'bench/x.ts']) {
      expect(await gitSpawns(file, "import { spawn } from 'node:child_process';\nexport const a = spawn('git', ['status']);\n"), file).toHaveLength(1);
    }
    // other programs, and git through the runner, are fine
    expect(await gitSpawns('src/main/core/sessions/supervisor.ts', "import { spawn } from 'node:child_process';\nexport const a = spawn('node', ['x.js']);\n")).toEqual([]);
    expect(await gitSpawns('src/main/core/files/x.ts', "import { runGit } from '../git/runGit';\nexport const a = runGit(['status'], { cwd: '.' });\n")).toEqual([]);
    expect(await gitSpawns('src/main/core/git/runGit.ts', "import { execFile } from 'node:child_process';\nexecFile('git', [], () => undefined);\n")).toEqual([]);
  });

  it('only the audited process owners of the engine may import child_process', async () => {
    const code = "import { execFile } from 'node:child_process';\nexport const a = execFile;\n";
    for (const file of ['src/main/core/files/listWorkspaceFiles.ts', 'src/main/core/rules/x.ts', 'src/main/core/trust/x.ts', 'src/main/server/x.ts', 'src/main/cli/x.ts']) {
      expect(await childProcessImports(file, code), file).toEqual([expect.stringContaining('audited process owners')]);
    }
    expect(await childProcessImports('src/main/core/workspaces/x.ts', "import cp from 'child_process';\nexport const a = cp;\n")).toHaveLength(1);
    for (const file of ['src/main/core/git/runGit.ts', 'src/main/core/hooks/runCommand.ts', 'src/main/core/sessions/supervisor.ts']) {
      expect(await childProcessImports(file, code), file).toEqual([]);
    }
    // the electron ban still holds in an owner file
    expect(await childProcessImports('src/main/core/sessions/supervisor.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
  });
});
