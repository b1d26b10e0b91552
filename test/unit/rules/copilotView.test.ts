import { describe, expect, it } from 'vitest';
import { agentView, copilotApplies } from '../../../src/main/core/rules/agentViews';
import { buildCatalog, makeHome, makeRepo } from './helpers';

describe('Copilot view (VS Code Copilot Chat, modelled from its docs)', () => {
  it('applyTo matches anywhere in the absolute path, ignoring case; a leading / anchors at the file-system root', () => {
    expect(copilotApplies('apps/**', '/r/packages/core/src/v3/apps/exec.ts')).toBe(true);
    expect(copilotApplies('*.ts', '/r/deep/down/x.ts')).toBe(true);
    expect(copilotApplies('src/**/*.ts', '/r/SRC/Lib/A.TS')).toBe(true);
    expect(copilotApplies('**/*.py', '/r/a.ts')).toBe(false);
    expect(copilotApplies('/src/**', '/r/src/a.ts')).toBe(false);
    expect(copilotApplies('/r/src/**', '/r/src/a.ts')).toBe(true);
    expect(copilotApplies('*', '/anything')).toBe(true);
    expect(copilotApplies('  ', '/anything')).toBe(false);
  });

  it('reads .github only at the workspace folder, applies .instructions.md by applyTo, and says it is not proven', async () => {
    const dir = makeRepo({
      '.github/copilot-instructions.md': 'repo wide',
      'AGENTS.md': 'agents root',
      '.github/instructions/ts.instructions.md': '---\napplyTo: "src/**/*.ts"\n---\nts rules',
      '.github/instructions/py.instructions.md': '---\napplyTo: "**/*.py"\n---\npy rules',
      '.github/instructions/review.instructions.md': '---\ndescription: Code review checklist\n---\nreview rules',
      '.github/instructions/empty.instructions.md': '---\napplyTo: ""\n---\nempty rules',
      'pkg/.github/copilot-instructions.md': 'nested wide',
      'pkg/.github/instructions/n.instructions.md': '---\napplyTo: "**"\n---\nnested rules',
      'pkg/AGENTS.md': 'pkg agents',
      'pkg/lib/src/a.ts': '',
    });
    const catalog = await buildCatalog(dir, { home: makeHome() });
    const view = await agentView(catalog, 'copilot', 'pkg', 'pkg/lib/src/a.ts');
    const byPath = Object.fromEntries(view.files.map((f) => [f.path, f]));
    expect(byPath['.github/copilot-instructions.md']).toMatchObject({ status: 'loaded', when: 'start' });
    expect(byPath['AGENTS.md']).toMatchObject({ status: 'loaded', when: 'start' });
    expect(byPath['.github/instructions/ts.instructions.md']).toMatchObject({ status: 'loaded', when: 'on-read' });
    expect(byPath['.github/instructions/py.instructions.md']).toMatchObject({ status: 'conditional' });
    expect(byPath['.github/instructions/review.instructions.md']).toMatchObject({ status: 'conditional' });
    expect(byPath['.github/instructions/review.instructions.md'].reason).toContain('description');
    expect(byPath['.github/instructions/empty.instructions.md'].reason).toContain('applyTo is empty, so no file attaches it');
    expect(byPath['pkg/.github/copilot-instructions.md']).toMatchObject({ status: 'ignored' });
    expect(byPath['pkg/.github/instructions/n.instructions.md']).toMatchObject({ status: 'ignored' });
    expect(byPath['pkg/AGENTS.md']).toMatchObject({ status: 'ignored' });
    expect(view.content).toContain('ts rules');
    expect(view.content).not.toContain('py rules');
    expect(view.content).not.toContain('nested');
    expect(view.notes[0]).toContain('not proven');
    expect(view.budgetBytes).toBeNull();
  });
});
