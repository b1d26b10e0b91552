import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RuleCatalogBuilder } from '../src/main/core/rules/builder';
import { fixedGate } from '../src/main/core/trust/gate';
import { lintCatalog } from '../src/main/core/rules/lint';
import { explainRules } from '../src/main/core/rules/explain';
import { agentView } from '../src/main/core/rules/agentViews';

const entry = process.argv[2] ?? 'synthetic__kitchen-sink';
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'smoke-')));
const ws = path.join(base, entry);
execFileSync('bash', ['/work/shared/corpus/materialize.sh', `/work/shared/corpus/${entry}`, ws], { stdio: 'ignore' });
const home = path.join(base, 'home'); fs.mkdirSync(home);
const b = new RuleCatalogBuilder({ workspaceDir: ws, homeDir: home, gate: fixedGate(true) });
const t0 = performance.now();
const c = await b.build();
console.log('build ms', performance.now() - t0, c.files.length, c.catalogSha256);
for (const f of c.files) console.log(f.status.padEnd(10), f.kind.padEnd(11), f.format.padEnd(20), f.relativePath, JSON.stringify(f.patterns), f.warnings.map(w => `${w.severity}:${w.code}@${w.line}`).join(' '));
const lint = lintCatalog(c);
for (const f of lint.findings.filter(f => f.severity !== 'info')) console.log('LINT', f.path, f.line, f.code, f.message, '| fix:', f.fix);
const e = explainRules(c, { path: process.argv[3] ?? 'services/api/src/handler.ts' });
console.log('static', e.static.files.map(s => s.file.relativePath), 'ctx', e.contextual.files.map(s => [s.file.relativePath, s.matchedPattern]), 'dropped', e.static.dropped.map(d=>d.file.relativePath), e.contextual.dropped.map(d=>d.file.relativePath));
for (const a of ['codex','claude','gemini'] as const) { const v = await agentView(c, a, '', 'services/api/src/handler.ts'); console.log(a, v.files.map(f => `${f.status}:${f.path}`)); }
console.log(e.content.slice(0, 1500));
