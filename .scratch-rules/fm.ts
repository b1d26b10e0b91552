import YAML from 'yaml';
import { splitFrontmatter } from '../src/main/core/rules/frontmatter';
const cases = [
  'paths: **/*.tsx,**/*.ts\ndescription: Core rules for frontend TypeScript and React development',
  'paths:\n  - "src/**/*.ts"\n  - lib/**\ndescription: x',
  'globs: src/**/*.ts, lib/**/*.ts\nalwaysApply: false',
  'alwaysApply: true\ndescription: "quoted: colon"',
  'applyTo: \'**/*.test.ts,src/e2e/**/*.spec.ts\'',
  'description: Use when: writing tests',
  'a: 12\nb: 1.5\nc: null\nd: ~\ne: True\nf: yes\ng: 0x1F\nh: -3\ni: 1e3',
  'paths: []',
  'paths: ""',
  'desc: a #comment',
  'desc: http://x.y/z',
  'name: foo\n# comment\nversion: 1.0.0',
  'list:\n- a\n- b',
];
for (const c of cases) {
  const r = splitFrontmatter(`---\n${c}\n---\nbody`);
  let y: unknown; try { y = YAML.parse(c); } catch (e) { y = 'YAML ERR'; }
  console.log(JSON.stringify(c), '=>', JSON.stringify(r.frontmatter?.data), r.frontmatter?.mode, r.warnings.map(w => w.code), '| yaml:', JSON.stringify(y));
}
