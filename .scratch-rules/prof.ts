import fs from 'node:fs';
import path from 'node:path';
import { discoverProject, discoverUser } from '../src/main/core/rules/discover';
import { loadRule } from '../src/main/core/rules/loadRule';
import { listWorkspaceFiles } from '../src/main/core/files/listWorkspaceFiles';
const ws = '/tmp/mono';
for (let i = 0; i < 3; i++) {
let t = performance.now();
await listWorkspaceFiles(ws, { verifyExistence: false }); const tl = performance.now() - t;
t = performance.now();
const d = await discoverProject(ws, ws); const td = performance.now() - t;
t = performance.now();
const imports = { homeDir: '/nonexistent', allowed: [ws], display: (a: string) => path.relative(ws, a) };
await Promise.all(d.candidates.map(c => loadRule(c, { root: ws, restricted: false, confineTo: [ws], imports })));
const tr = performance.now() - t;
console.log({ list: tl, discover: td, load: tr, n: d.candidates.length });
}
