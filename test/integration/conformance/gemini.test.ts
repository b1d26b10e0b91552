import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readInstallMarker } from '../../../src/main/core/sessions/installer';
import { agentView } from '../../../src/main/core/rules/agentViews';
import { GEMINI_JIT_PREFIX, GEMINI_JIT_SUFFIX } from '../../../src/main/core/rules/agentViews/gemini';
import { runAgentDirect } from '../../support/acpDirect';
import { AGENT_CACHE, presetOf } from '../../support/agents';
import { endsWithFunctionResponse, type GeminiPart, type GeminiRequest } from '../../support/fakeGemini';
import { geminiWorld, type GeminiWorld } from '../../support/gemini';
import { buildCatalog } from '../../unit/rules/helpers';

/**
 * Conformance of the Gemini view with the real Gemini CLI 0.61.0 (`gemini --acp`, the pinned preset,
 * no Atrium in between) against the fake Gemini API: one prompt, one read_file of a file in a
 * subfolder that holds its own GEMINI.md. The context blocks Gemini sends at start (system
 * instruction and first user message) and the one it appends to the read_file result must be the
 * ones `agentView(catalog, 'gemini', start, target)` predicts: same files, same order, same text.
 */

const marker = readInstallMarker(AGENT_CACHE, presetOf('gemini'));
const reason = marker ? '' : ` — skipped: Gemini CLI 0.61.0 is not installed in ${AGENT_CACHE} (set ATRIUM_TEST_AGENT_CACHE or run the *Real tests once)`;
if (!marker) console.log(`conformance/gemini${reason}`);

let world: GeminiWorld | null = null;
afterEach(async () => {
  await world?.closeAll();
  world = null;
});

/** `--- Context from: <path> ---` blocks in `text`, in order, with their text. */
function blocks(text: string): Array<[string, string]> {
  return [...text.matchAll(/--- Context from: (.+?) ---\n([\s\S]*?)\n--- End of Context from: \1 ---/g)].map((m) => [m[1], m[2]]);
}

const partsText = (parts: GeminiPart[] | undefined) => (parts ?? []).map((p) => (typeof p.text === 'string' ? p.text : '')).join('\n');
const systemText = (req: GeminiRequest) => (typeof req.body.systemInstruction === 'string' ? req.body.systemInstruction : partsText(req.body.systemInstruction?.parts));
/** Text of every content that is not a tool result. */
const userTexts = (req: GeminiRequest) => (req.body.contents ?? []).filter((c) => !(c.parts ?? []).some((p) => p.functionResponse)).map((c) => partsText(c.parts));
/** The strings inside the function responses of a request. */
function responseStrings(req: GeminiRequest): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const c of req.body.contents ?? []) for (const p of c.parts ?? []) if (p.functionResponse) walk(p.functionResponse.response);
  return out;
}

describe.skipIf(!marker)(`Gemini CLI 0.61.0 loads what the Gemini view predicts (real agent, fake Gemini API)${reason}`, () => {
  it('start: ~/.gemini + start folder up to the git root with context.fileName, Gemini imports; read_file in a subfolder: its GEMINI.md just in time', async () => {
    let target = '';
    world = await geminiWorld((req) => {
      if (endsWithFunctionResponse(req)) return { text: 'done reading' };
      return { functionCall: { name: 'read_file', args: { file_path: target } } };
    });
    const { home, ws } = world;
    execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '-q', ws]);
    fs.writeFileSync(path.join(home, '.gemini', 'GEMINI.md'), 'Global rule: be brief.\n');
    world.write({
      'GEMINI.md': 'Root GEMINI rule.\n',
      'AGENTS.md': 'Root AGENTS rule (read because context.fileName lists it).\n',
      'CLAUDE.md': 'Claude only: Gemini never reads this.\n',
      'other/GEMINI.md': 'Sibling folder: never loaded.\n',
      // Gemini reads the workspace settings of its start folder (cwd), JSON with comments
      'app/.gemini/settings.json': '{\n  // read AGENTS.md too\n  "context": { "fileName": ["AGENTS.md", "GEMINI.md"] }\n}\n',
      'app/GEMINI.md': [
        'Start folder rule.',
        'Imported: @style.md',
        'Glued to a paren (@style.md) stays text.',
        'Trailing colon @style.md: fails.',
        '~~~',
        '@fenced.md',
        '~~~',
        'Inline `@code.md` stays text.',
        'Missing @nothere.md is replaced.',
        '',
      ].join('\n'),
      'app/style.md': 'STYLE: tabs.\n',
      'app/fenced.md': 'FENCED: imported by Gemini (~~~ is not code to it).\n',
      'app/code.md': 'CODE: never imported.\n',
      'app/sub/GEMINI.md': 'Sub folder rule, just in time.\n',
      'app/sub/data.txt': 'payload line\n',
    });
    const start = path.join(ws, 'app');
    target = path.join(start, 'sub', 'data.txt');

    const catalog = await buildCatalog(ws, { home });
    const view = await agentView(catalog, 'gemini', 'app', 'app/sub/data.txt');
    const jitAt = view.content.indexOf(GEMINI_JIT_PREFIX);
    expect(jitAt).toBeGreaterThan(0);
    const predictedStart = blocks(view.content.slice(0, jitAt));
    const predictedJitFrame = view.content.slice(jitAt);
    expect(predictedJitFrame.endsWith(GEMINI_JIT_SUFFIX)).toBe(true);
    // the fixture exercises what it claims
    expect(predictedStart.map(([p]) => p)).toEqual([path.join(home, '.gemini', 'GEMINI.md'), path.join(ws, 'AGENTS.md'), path.join(ws, 'GEMINI.md'), path.join(start, 'GEMINI.md')]);
    expect(blocks(predictedJitFrame).map(([p]) => p)).toEqual([path.join(start, 'sub', 'GEMINI.md')]);

    const run = await runAgentDirect({ command: process.execPath, args: [marker!.entry, '--acp'], cwd: start, env: world.env, prompts: ['Read sub/data.txt please.'], timeoutMs: 150_000 });
    expect(run.stopReasons).toEqual(['end_turn']);
    const main = world.fake.main();
    expect(main.length).toBeGreaterThanOrEqual(2);
    const first = main[0];
    const sentAtStart = [...blocks(systemText(first)), ...userTexts(first).flatMap(blocks)];
    expect(sentAtStart).toEqual(predictedStart);
    // Global context in the system instruction, project context in the first user message
    expect(blocks(systemText(first)).map(([p]) => p)).toEqual([path.join(home, '.gemini', 'GEMINI.md')]);
    const withTool = main.find((r) => endsWithFunctionResponse(r))!;
    const results = responseStrings(withTool);
    expect(results.some((s) => s.endsWith(`\n\n${predictedJitFrame}`)), JSON.stringify(results).slice(0, 2000)).toBe(true);
  }, 200_000);

  it('without .git anywhere: only the start folder (no parents), and the touched subfolder just in time', async () => {
    let target = '';
    world = await geminiWorld((req) => (endsWithFunctionResponse(req) ? { text: 'done' } : { functionCall: { name: 'read_file', args: { file_path: target } } }));
    const { home, ws } = world;
    world.write({ 'GEMINI.md': 'Parent rule: Gemini stops below it without git.\n', 'app/GEMINI.md': 'Start rule.\n', 'app/lib/GEMINI.md': 'Lib rule.\n', 'app/lib/x.ts': 'export {};\n' });
    const start = path.join(ws, 'app');
    target = path.join(start, 'lib', 'x.ts');
    const view = await agentView(await buildCatalog(ws, { home }), 'gemini', 'app', 'app/lib/x.ts');
    const jitAt = view.content.indexOf(GEMINI_JIT_PREFIX);
    const predictedStart = blocks(view.content.slice(0, jitAt));
    expect(predictedStart.map(([p]) => p)).toEqual([path.join(start, 'GEMINI.md')]);
    const run = await runAgentDirect({ command: process.execPath, args: [marker!.entry, '--acp'], cwd: start, env: world.env, prompts: ['Read lib/x.ts'], timeoutMs: 150_000 });
    expect(run.stopReasons).toEqual(['end_turn']);
    const [first] = world.fake.main();
    expect([...blocks(systemText(first)), ...userTexts(first).flatMap(blocks)]).toEqual(predictedStart);
    const withTool = world.fake.main().find((r) => endsWithFunctionResponse(r))!;
    expect(responseStrings(withTool).some((s) => s.endsWith(`\n\n${view.content.slice(jitAt)}`))).toBe(true);
  }, 200_000);
});
