import fs from 'node:fs';
import { RuleCatalogBuilder } from '../src/main/core/rules/builder';
import { fixedGate } from '../src/main/core/trust/gate';
const b = new RuleCatalogBuilder({ workspaceDir: '/tmp/mono', homeDir: fs.mkdtempSync('/tmp/h-'), gate: fixedGate(true) });
for (let i = 0; i < 4; i++) { const t = performance.now(); await b.build(); console.log('build', performance.now() - t); }
