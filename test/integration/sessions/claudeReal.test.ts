import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/main/core/engine';
import { INSTALL_MARKER, installDir } from '../../../src/main/core/sessions/installer';
import { AGENT_PRESETS } from '../../../src/main/core/sessions/presets';
import { repoRoot } from '../../support/corpus';
import { endsWithToolResult, lastUserText, startFakeAnthropic, type FakeAnthropic } from '../../support/fakeAnthropic';
import { waitFor } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

/**
 * The real Claude Code ACP adapter (`@agentclientprotocol/claude-agent-acp`, pinned devDependency)
 * against a fake Anthropic Messages endpoint on 127.0.0.1 (acp.md §3.1): no network, no key.
 * HOME is a temp dir (Claude keeps its sessions under ~/.claude), IS_SANDBOX=1 lets it run as root.
 */
const preset = AGENT_PRESETS.find((p) => p.id === 'claude')!;
const adapterEntry = path.join(repoRoot, 'node_modules', preset.package, 'dist/index.js');

const engines: Engine[] = [];
let fake: FakeAnthropic | null = null;
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
  await fake?.close();
  fake = null;
});

describe('the real Claude ACP adapter (offline, fake Messages endpoint)', () => {
  it('runs a session: streamed reply, a Write as a permission prompt, file written after allow, restart, resume, continue', async () => {
    const base = tempDir('atrium-claude-');
    const home = path.join(base, 'home');
    const ws = path.join(base, 'ws');
    const dataDir = path.join(base, 'data');
    fs.mkdirSync(home);
    fs.mkdirSync(ws);
    const target = path.join(ws, 'hello.txt');
    fake = await startFakeAnthropic((req) => {
      const text = lastUserText(req);
      if (text.includes('<session>')) return { text: 'Fake title' };
      if (endsWithToolResult(req)) return { text: 'I wrote the file.' };
      if (/continue/i.test(text)) return { text: `Continuing with ${req.body.messages?.length ?? 0} messages of context.` };
      if (/write/i.test(text)) return { toolUse: { name: 'Write', input: { file_path: target, content: 'hi from claude\n' } } };
      return { text: 'Hello from the fake model.' };
    });
    // the pinned preset, "installed" from the repository's devDependency (what `agents install claude` lays out)
    expect(fs.existsSync(adapterEntry), `${adapterEntry} (npm install the devDependencies)`).toBe(true);
    fs.mkdirSync(installDir(dataDir, preset), { recursive: true });
    fs.writeFileSync(
      path.join(installDir(dataDir, preset), INSTALL_MARKER),
      JSON.stringify({ id: 'claude', package: preset.package, version: preset.version, entry: adapterEntry, installedAt: new Date().toISOString() }),
    );
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('ANTHROPIC_') && !k.startsWith('CLAUDE')) env[k] = v;
    Object.assign(env, { HOME: home, IS_SANDBOX: '1', ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'sk-ant-fake', DISABLE_AUTOUPDATER: '1' });
    const open = () => {
      const engine = createEngine({ dataDir, watchResources: false, sessions: { baseEnv: env, envPath: '', idleMs: 0 } });
      engines.push(engine);
      return engine;
    };
    let engine = open();
    expect(engine.sessions.agents.get('claude').install).toMatchObject({ state: 'installed', source: 'data-dir' });

    const s = engine.sessions.create({ cwd: ws, agentId: 'claude' });
    const started = await engine.sessions.resume(s.id);
    expect(started.state, started.lastError ?? '').toBe('idle');
    expect(started.agentSessionId).toBeTruthy();
    expect(started.capabilities).toMatchObject({ loadSession: true, resume: true, list: true });
    // the preset selects the asking mode explicitly, so edits come back as permission requests
    expect(started.modes?.currentModeId).toBe('default');

    const hi = engine.sessions.prompt(s.id, 'say hi');
    expect(await engine.sessions.waitForTurn(s.id, hi.promptId)).toBe('end_turn');
    const agentText = () =>
      engine.sessions
        .transcript(s.id, { limit: 1000 })
        .items.filter((i) => i.kind === 'agent_message')
        .map((i) => (i.kind === 'agent_message' ? i.text : ''))
        .join('\n');
    expect(agentText()).toContain('Hello from the fake model.');

    const write = engine.sessions.prompt(s.id, 'please write hello.txt');
    const permission = await waitFor(() => engine.sessions.show(s.id).permissions[0], 'the Write permission request', 60_000);
    expect(engine.sessions.show(s.id).state).toBe('awaiting_permission');
    expect(permission.toolKind).toBe('edit');
    expect(permission.title).toContain('hello.txt');
    expect(permission.locations.map((l) => l.path)).toContain(target);
    expect(permission.content.find((c) => c.type === 'diff')).toMatchObject({ path: target, newText: 'hi from claude\n' });
    expect(fs.existsSync(target)).toBe(false);
    const allow = permission.options.find((o) => o.kind === 'allow_once')!;
    engine.sessions.answerPermission(s.id, permission.requestId, allow.optionId);
    expect(await engine.sessions.waitForTurn(s.id, write.promptId)).toBe('end_turn');
    expect(fs.readFileSync(target, 'utf8')).toBe('hi from claude\n');
    expect(agentText()).toContain('I wrote the file.');
    const tool = engine.sessions.transcript(s.id, { limit: 1000 }).items.find((i) => i.kind === 'tool_call');
    expect(tool).toMatchObject({ toolKind: 'edit', status: 'completed' });

    // restart Atrium: the agent process goes away, the session stays
    const itemsBefore = engine.sessions.transcript(s.id, { limit: 1000 }).items.length;
    await engine.close();
    engine = open();
    expect(engine.sessions.show(s.id)).toMatchObject({ state: 'idle', live: false });
    const next = engine.sessions.prompt(s.id, 'continue please');
    expect(await engine.sessions.waitForTurn(s.id, next.promptId)).toBe('end_turn');
    const resumed = engine.sessions.show(s.id);
    expect(resumed.resume?.outcome).toBe('resumed');
    expect(resumed.agentSessionId).toBe(started.agentSessionId);
    // the model saw the earlier conversation (the agent kept its context), and nothing was replayed into the transcript
    const continued = /Continuing with (\d+) messages/.exec(agentText());
    expect(continued).not.toBeNull();
    expect(Number(continued![1])).toBeGreaterThan(3);
    const after = engine.sessions.transcript(s.id, { limit: 1000 }).items;
    expect(after.filter((i) => i.kind === 'user_message' && i.text === 'say hi')).toHaveLength(1);
    expect(after.length).toBeGreaterThan(itemsBefore);
  }, 180_000);
});
