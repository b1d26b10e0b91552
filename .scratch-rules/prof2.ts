import path from 'node:path';
import fs from 'node:fs';
import { discoverProject } from '../src/main/core/rules/discover';
import { loadRule } from '../src/main/core/rules/loadRule';
import { splitFrontmatter } from '../src/main/core/rules/frontmatter';
import { resolveCondition } from '../src/main/core/rules/conditions';
const ws = '/tmp/mono';
const d = await discoverProject(ws, ws);
const texts = d.candidates.map(c => fs.readFileSync(c.absolutePath, 'utf8'));
let t = performance.now();
for (let k = 0; k < 5; k++) for (const text of texts) splitFrontmatter(text);
console.log('frontmatter per file µs', (performance.now() - t) / 5 / texts.length * 1000);
t = performance.now();
for (let k = 0; k < 5; k++) for (let i = 0; i < texts.length; i++) { const s = splitFrontmatter(texts[i]); resolveCondition(d.candidates[i].classification.format, s.frontmatter?.data ?? {}, s.lineOf); }
console.log('fm+cond per file µs', (performance.now() - t) / 5 / texts.length * 1000);
const imports = { homeDir: '/nonexistent', allowed: [ws], display: (a: string) => path.relative(ws, a) };
t = performance.now();
for (const c of d.candidates) await loadRule(c, { root: ws, restricted: false, confineTo: [ws], imports });
console.log('sequential loadRule per file µs', (performance.now() - t) / texts.length * 1000);
t = performance.now();
for (const c of d.candidates) { await fs.promises.lstat(c.absolutePath); await fs.promises.readFile(c.absolutePath); }
console.log('lstat+read per file µs', (performance.now() - t) / texts.length * 1000);
