import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sessionEngine, record, waitFor } from './test/support/sessions';
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'smoke-')));
const ws = path.join(base, 'ws'); fs.mkdirSync(ws); fs.writeFileSync(path.join(ws, 'README.md'), 'line1\nline2\nline3\n');
const engine = sessionEngine(path.join(base, 'data'), base, {
  capabilities: { loadSession: true, resume: true, list: true, close: true },
  modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] },
  turns: [{ match: 'hello', steps: [{ plan: [{ content: 'do it', priority: 'high', status: 'in_progress' }] }, { toolCall: { id: 't1', title: 'Read', kind: 'read', status: 'pending' } }, { read: { path: '{{cwd}}/README.md', line: 2, limit: 1 } }, { toolUpdate: { id: 't1', status: 'completed' } }, { text: 'Hello there friend', chunks: 3 }, { permission: { toolCallId: 't2', title: 'Write notes', kind: 'edit' } }, { write: { path: '{{cwd}}/notes.txt', content: 'hi' } }, { write: { path: '/etc/evil', content: 'x' } }] }],
});
const rec = record(engine);
engine.bus.subscribe((e, p: any) => { if (e === 'permissionRequested') { console.log('PERM', p.permission.requestId); engine.sessions.answerPermission(p.sessionId, p.permission.requestId, 'allow'); } });
const s = engine.sessions.create({ cwd: ws, agentId: 'scripted', prompt: 'hello' });
console.log('created', s.id, s.state);
const final = await waitFor(() => { const x = engine.sessions.show(s.id); return x.stopReason ? x : null; }, 'stop');
console.log(final.state, final.stopReason, final.agentSessionId, final.modes);
const t = engine.sessions.transcript(s.id);
for (const i of t.items) console.log(JSON.stringify(i).slice(0, 300));
console.log(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8'));
console.log('events', rec.events.length, rec.of('sessionUpdated').map((x) => x.session.state).join(','));
await engine.close();
console.log('after close', engine.sessions === undefined ? '' : 'ok');
