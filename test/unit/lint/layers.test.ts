import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/corpus';

// Proves the engine's layering rule (eslint.config.js, boundaries/dependencies) can fail: snippets at
// real engine paths, importing real modules, that `npm run lint` would reject or accept.
const eslint = new ESLint({ cwd: repoRoot });
const layerErrors = async (file: string, code: string) => {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return result.messages.filter((m) => m.ruleId === 'boundaries/dependencies').map((m) => m.message);
};
const importing = (spec: string, name: string, typeOnly = false) =>
  typeOnly ? `import type { ${name} } from '${spec}';\nexport type A = ${name};\n` : `import { ${name} } from '${spec}';\nexport const a = ${name};\n`;

describe('engine layering (eslint)', () => {
  it('rejects an import that goes up a layer, type-only imports included', async () => {
    const up: Array<[string, string, string, boolean?]> = [
      ['src/main/core/formats/x.ts', '../hooks/danger', 'commandDangers'],
      ['src/main/core/formats/x.ts', '../workspaces/paths', 'isAncestorOrSelf'],
      ['src/main/core/rules/x.ts', '../trust/gate', 'fixedGate'],
      ['src/main/core/rules/x.ts', '../trust/gate', 'TrustGate', true],
      ['src/main/core/hooks/x.ts', '../trust/review/risk', 'commandRiskWarnings'],
      ['src/main/core/hooks/x.ts', '../sessions/supervisor', 'AgentProcess'],
      ['src/main/core/hooks/x.ts', '../engine', 'createEngine'],
      ['src/main/core/store/x.ts', '../trust/schema', 'trustMigration'],
      ['src/main/core/workspaces/x.ts', '../rules/paths', 'relativeToRoot'],
      ['src/main/core/trust/x.ts', '../api/rulesService', 'RulesService'],
      ['src/main/core/sessions/workspacePolicy/x.ts', '../../api/extensionsService', 'ExtensionsService'],
    ];
    for (const [file, spec, name, typeOnly] of up) {
      expect(await layerErrors(file, importing(spec, name, typeOnly)), `${file} → ${spec}`).toEqual([expect.stringContaining('Engine layering')]);
    }
  });

  it('rejects a capability importing another capability', async () => {
    const sideways: Array<[string, string, string]> = [
      ['src/main/core/hooks/x.ts', '../extensions/plugins/states', 'projectPluginStates'],
      ['src/main/core/extensions/mcp/x.ts', '../../hooks/mcp', 'mcpServersFromMap'],
      ['src/main/core/rules/x.ts', '../hooks/danger', 'commandDangers'],
      ['src/main/core/extensions/x.ts', '../rules/paths', 'relativeToRoot'],
    ];
    for (const [file, spec, name] of sideways) {
      expect(await layerErrors(file, importing(spec, name)), `${file} → ${spec}`).toEqual([expect.stringMatching(/Engine layering: (hooks|extensions|rules) may not import (hooks|extensions|rules)/)]);
    }
  });

  it('accepts imports that go down or stay in their folder', async () => {
    const fine: Array<[string, string, string]> = [
      ['src/main/core/hooks/x.ts', '../formats/canonicalJson', 'digestOf'],
      ['src/main/core/hooks/x.ts', '../files/classify', 'classify'],
      ['src/main/core/hooks/x.ts', '../workspaces/paths', 'isAncestorOrSelf'],
      ['src/main/core/hooks/x.ts', '../process/processTree', 'killProcessTree'],
      ['src/main/core/hooks/x.ts', './pluginGate', 'pluginGate'],
      ['src/main/core/extensions/mcp/x.ts', '../../formats/mcpServers', 'mcpServerDefinitionsFromMap'],
      ['src/main/core/trust/x.ts', '../hooks/mcp', 'mcpServersFromMap'],
      ['src/main/core/sessions/x.ts', '../extensions/invocations', 'CommandInvocations'],
      ['src/main/core/api/x.ts', '../trust/gate', 'fixedGate'],
      ['src/main/core/x.ts', './hooks/schema', 'hooksMigration'],
      ['src/main/core/formats/x.ts', '../../../shared/errors', 'AtriumError'],
      ['src/main/core/formats/x.ts', './secrets', 'maskValues'],
    ];
    for (const [file, spec, name] of fine) {
      expect(await layerErrors(file, importing(spec, name)), `${file} → ${spec}`).toEqual([]);
    }
  });
});
