import { parseFrontmatter } from '../src/main/core/trust/review/frontmatter';
import fs from 'node:fs';
for (const f of process.argv.slice(2)) { const r = parseFrontmatter(fs.readFileSync(f,'utf8')); console.log(f, JSON.stringify({...r, body: r.body.slice(0,40)})); }
