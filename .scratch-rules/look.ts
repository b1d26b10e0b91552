import fs from 'node:fs';
import { RuleCatalogBuilder } from '../src/main/core/rules/builder';
import { fixedGate } from '../src/main/core/trust/gate';
const b = new RuleCatalogBuilder({ workspaceDir: '/tmp/mono', homeDir: fs.mkdtempSync('/tmp/h-'), gate: fixedGate(true) });
const c = await b.build();
const files = c.workspaceFiles.filter((_, i) => i % 5 === 0);
const empty = new Set<string>();
for (let round = 0; round < 3; round++) {
  const t = performance.now(); let n = 0;
  for (const f of files) n += c.matchTargets('', [f], empty).length;
  const dt = performance.now() - t; console.log('lookups/s', Math.round(files.length / dt * 1000), 'avg results', n / files.length);
}
