import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/corpus';

// Proves the architectural lint rules can fail: the same snippets that `npm run lint` would reject.
const eslint = new ESLint({ cwd: repoRoot });
const lint = async (file: string, code: string) => {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
};

describe('layer boundaries (eslint)', () => {
  it('the engine never imports electron', async () => {
    expect(await lint('src/main/core/workspaces/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toEqual([expect.stringContaining('never import electron')]);
    expect(await lint('src/main/server/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
    expect(await lint('src/main/cli/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
  });

  it('the Electron shell may import electron', async () => {
    expect(await lint('src/main/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toEqual([]);
  });

  it('src/shared stays pure and the renderer reaches the engine only through the contract', async () => {
    expect(await lint('src/shared/x.ts', "import fs from 'node:fs';\nexport const a = fs;\n")).toHaveLength(1);
    expect(await lint('src/renderer/src/x.ts', "import { createEngine } from '../../main/core/engine';\nexport const a = createEngine;\n")).toHaveLength(1);
    expect(await lint('src/renderer/src/x.ts', "import fs from 'fs';\nexport const a = fs;\n")).toHaveLength(1);
  });
});
