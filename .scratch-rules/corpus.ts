import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RuleCatalogBuilder } from '../src/main/core/rules/builder';
import { fixedGate } from '../src/main/core/trust/gate';
import { lintCatalog } from '../src/main/core/rules/lint';
for (const entry of ['0xBigBoss__claude-code','Kibnet__Unlimotion','anthropics__claude-plugins-official','cline__cline','dyoshikawa__rulesync','echoVic__blade-code']) {
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'smoke-')));
const ws = path.join(base, entry);
execFileSync('bash', ['/work/shared/corpus/materialize.sh', `/work/shared/corpus/${entry}`, ws], { stdio: 'ignore' });
const b = new RuleCatalogBuilder({ workspaceDir: ws, homeDir: fs.mkdtempSync('/tmp/h-'), gate: fixedGate(true) });
const c = await b.build();
console.log('#####', entry, c.files.length, 'files', c.workspaceFiles.length, 'ws files');
for (const f of c.files) console.log('  ', f.status.padEnd(10), f.kind.padEnd(11), f.format.padEnd(16), f.relativePath, f.linkTarget ?? '', f.warnings.map(w => `${w.code}`).join(' '));
const l = lintCatalog(c); console.log('   lint', l.counts, [...new Set(l.findings.map(f=>f.code))].join(','));
}
