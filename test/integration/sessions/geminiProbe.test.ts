import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { geminiWorld, type GeminiWorld } from '../../support/gemini';
import { endsWithFunctionResponse, lastUserText } from '../../support/fakeGemini';
import { autoAllow } from '../../support/claude';
import { items, lastTurnText } from '../../support/policy';

let world: GeminiWorld | null = null;
afterEach(async () => { await world?.closeAll(); world = null; });

it('probe', async () => {
  let ws = '';
  world = await geminiWorld((req) => {
    const t = lastUserText(req);
    if (/create/.test(t)) {
      if (endsWithFunctionResponse(req)) return { text: 'done: ' + JSON.stringify(req.body.contents?.at(-1)).slice(0, 400) };
      return { functionCall: { name: 'write_file', args: { file_path: path.join(ws, 'new.txt'), content: 'hello\n' } } };
    }
    return { text: 'hello from fake gemini' };
  });
  ws = world.ws;
  world.write({ 'GEMINI.md': 'Gemini rule: be brief.\n' });
  const engine = world.openTrusted();
  const s = engine.sessions.create({ cwd: ws, agentId: 'gemini' });
  const { promptId } = engine.sessions.prompt(s.id, 'say hi');
  console.log(await engine.sessions.waitForTurn(s.id, promptId));
  console.log(lastTurnText(engine, s.id, { stops: true }));
  const p2 = engine.sessions.prompt(s.id, 'create new.txt');
  const done = engine.sessions.waitForTurn(s.id, p2.promptId);
  void autoAllow(engine, s.id, done);
  console.log(await done);
  console.log(lastTurnText(engine, s.id, { stops: true }));
  console.log('exists', fs.existsSync(path.join(ws, 'new.txt')));
  console.log(world.fake.requests.map((r) => `${r.kind} ${r.model} ${r.path}`).join('\n'));
  console.log(JSON.stringify(items(engine, s.id).filter((i) => i.kind === 'notice').map((i: any) => i.title)));
  const m = world.fake.main()[0];
  console.log('GEMINI.md count in first main', JSON.stringify(m.body.contents).split('Gemini rule').length - 1);
  expect(1).toBe(1);
}, 120_000);
