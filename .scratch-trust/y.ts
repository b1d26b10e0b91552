import { parseDocument } from 'yaml';
const d = parseDocument('name: release-notes\ndescription: Draft release notes: summarise merged PRs, group by area\n', {prettyErrors: false});
for (const e of d.errors) console.log(e.code, e.message, e.pos, e.linePos);
const d2 = parseDocument('name: release-notes\ndescription: Draft release notes: summarise merged PRs, group by area\n', {prettyErrors: true});
for (const e of d2.errors) console.log(e.code, e.message, e.pos, e.linePos);
