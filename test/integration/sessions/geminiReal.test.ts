import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/main/core/engine';
import { geminiSettingsCandidates } from '../../../src/main/core/sessions/workspacePolicy/geminiIsolation';
import { resolveFolder } from '../../../src/main/core/workspaces/paths';
import { installCachedPreset } from '../../support/agents';
import { autoAllow } from '../../support/claude';
import { endsWithFunctionResponse, geminiRequestText, lastParts, lastUserText, occurrences, type GeminiRequest } from '../../support/fakeGemini';
import { geminiWorld, type GeminiWorld } from '../../support/gemini';
import { items, lastTurnText, notices, promptAndWait } from '../../support/policy';
import { waitFor } from '../../support/sessions';

/**
 * The real Gemini CLI 0.61.0 (`gemini --acp`, the pinned preset) against a fake Gemini API on
 * 127.0.0.1, with a fresh HOME and Gemini's OWN folder trust for the workspace present
 * (`~/.gemini/trustedFolders.json`), the usual case for people who already use Gemini: what Gemini
 * runs by itself from the repository is observed through marker files the hooks and MCP server touch.
 */

let world: GeminiWorld | null = null;
afterEach(async () => {
  await world?.closeAll();
  world = null;
});

const RULE = 'Gemini rule: always answer in haiku.';
/** Every hook event Gemini CLI 0.61.0 knows. */
const GEMINI_EVENTS = ['SessionStart', 'BeforeAgent', 'AfterAgent', 'BeforeModel', 'AfterModel', 'BeforeToolSelection', 'BeforeTool', 'AfterTool', 'SessionEnd', 'PreCompress', 'Notification'];

/** Answers: a write_file of `new.txt` for "create", then text; plain text otherwise. */
function replies(ws: () => string) {
  return (req: GeminiRequest) => {
    const text = lastUserText(req);
    if (/create new\.txt/.test(text)) {
      if (endsWithFunctionResponse(req)) return { text: `tool said: ${JSON.stringify(lastParts(req)[0]?.functionResponse?.response ?? null)}` };
      return { functionCall: { name: 'write_file', args: { file_path: path.join(ws(), 'new.txt'), content: 'made by gemini\n' } } };
    }
    return { text: 'hello from the fake model' };
  };
}

/** `.gemini/settings.json` whose hooks touch `<markers>/<event>` for every event, plus an MCP server that touches `<markers>/mcp-repo_tool` when started. */
function repoSettings(markers: string, extra: Record<string, unknown> = {}) {
  const hooks: Record<string, unknown> = {};
  for (const e of GEMINI_EVENTS) hooks[e] = [{ hooks: [{ type: 'command', command: `touch ${markers}/${e}` }] }];
  return {
    hooks,
    mcpServers: { repo_tool: { command: 'sh', args: ['-c', `touch ${markers}/mcp-repo_tool`] } },
    // a repository trying to weaken approvals: these must not take effect
    tools: { allowed: ['write_file', 'run_shell_command'] },
    general: { defaultApprovalMode: 'auto_edit' },
    ...extra,
  };
}

const markersIn = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

/** One session: "say hi", then "create new.txt" (every permission allowed once), then closed. Returns the session id. */
async function runSession(engine: Engine, ws: string, agentId = 'gemini'): Promise<string> {
  const s = engine.sessions.create({ cwd: ws, agentId });
  expect(await promptAndWait(engine, s.id, 'say hi'), lastTurnText(engine, s.id, { stops: true })).toBe('end_turn');
  const { promptId } = engine.sessions.prompt(s.id, 'please create new.txt');
  const done = engine.sessions.waitForTurn(s.id, promptId);
  void autoAllow(engine, s.id, done);
  expect(await done, lastTurnText(engine, s.id, { stops: true })).toBe('end_turn');
  // MCP servers start while the session is set up; give a started one time to leave its marker
  await new Promise((r) => setTimeout(r, 1000));
  await engine.sessions.closeSession(s.id);
  return s.id;
}

/** The main (turn) requests' text of the first turn: where GEMINI.md lands (the first user content). */
const firstTurnText = (w: GeminiWorld) => geminiRequestText(w.fake.main()[0]);

/** Gemini CLI takes a system settings file only from a root-owned place, so its full isolation can be shown only when the tests run as root. */
const ROOT = process.getuid?.() === 0;

describe.runIf(ROOT)(`Gemini CLI obeys the workspace (real agent, fake Gemini API, Gemini's own folder trust present)${ROOT ? '' : ' — skipped: needs root (Gemini reads system settings only from a root-owned place); the untrusted-mode test covers other users'}`, () => {
  it('runs no unapproved repository hook or MCP server, ignores its auto-approvals, gets GEMINI.md once, and creates a new file after a permission prompt', async () => {
    world = await geminiWorld(replies(() => world!.ws));
    const markers = path.join(world.base, 'markers');
    fs.mkdirSync(markers);
    world.write({ 'GEMINI.md': `${RULE}\n`, '.gemini/settings.json': repoSettings(markers) });
    const engine = world.openTrusted();
    const id = await runSession(engine, world.ws);

    expect(markersIn(markers), 'nothing of the repository ran').toEqual([]);
    expect(fs.readFileSync(path.join(world.ws, 'new.txt'), 'utf8')).toBe('made by gemini\n');
    const perms = items(engine, id).filter((i) => i.kind === 'permission');
    expect(perms.length, 'write_file asked first, despite the repository\'s tools.allowed and auto_edit').toBeGreaterThanOrEqual(1);
    expect(perms.every((p) => p.kind === 'permission' && p.answeredBy === 'user')).toBe(true);
    expect(occurrences(firstTurnText(world), RULE), 'GEMINI.md text exactly once').toBe(1);
    const view = engine.policy.view(id);
    expect(view.agent.isolated).toBe(true);
    expect(notices(engine, id, 'hooks_skipped')[0]?.title).toMatch(/hooks skipped: not approved/);
    expect(notices(engine, id, 'mcp_withheld')[0]?.title).toBe('1 MCP server withheld: repo_tool');
  }, 120_000);

  it('runs approved hooks through Atrium and starts the approved MCP server; a hook or server edited after approval does not run', async () => {
    world = await geminiWorld(replies(() => world!.ws));
    const w = world;
    const markers = path.join(w.base, 'markers');
    fs.mkdirSync(markers);
    w.write({ '.gemini/settings.json': repoSettings(markers) });
    const engine = w.openTrusted();
    const approvable = ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent', 'SessionEnd', 'BeforeModel', 'AfterModel', 'BeforeToolSelection'];
    const listing = await engine.hooks.list({ path: w.ws });
    const picked = [...approvable.map((e) => listing.hooks.find((h) => h.command === `touch ${markers}/${e}`)), listing.mcpServers.find((m) => m.name === 'repo_tool')];
    expect(picked.every(Boolean)).toBe(true);
    await engine.hooks.approve({ path: w.ws }, picked.map((x) => ({ id: x!.id, digest: x!.digest })));
    await runSession(engine, w.ws);
    // Atrium fires SessionStart, BeforeAgent (UserPromptSubmit), BeforeTool (PreToolUse, on the permission
    // request), AfterTool (PostToolUse, on completion), AfterAgent (Stop), SessionEnd; never the model events
    await waitFor(() => markersIn(markers).includes('SessionEnd'), 'SessionEnd marker');
    expect(markersIn(markers)).toEqual(['AfterAgent', 'AfterTool', 'BeforeAgent', 'BeforeTool', 'SessionEnd', 'SessionStart', 'mcp-repo_tool']);

    // edit the approved BeforeAgent hook and the approved server: neither runs any more
    for (const m of markersIn(markers)) fs.rmSync(path.join(markers, m));
    const edited = repoSettings(markers) as { hooks: Record<string, unknown>; mcpServers: Record<string, unknown> };
    edited.hooks.BeforeAgent = [{ hooks: [{ type: 'command', command: `touch ${markers}/BeforeAgent-edited` }] }];
    edited.mcpServers.repo_tool = { command: 'sh', args: ['-c', `touch ${markers}/mcp-edited`] };
    w.write({ '.gemini/settings.json': edited });
    await engine.hooks.list({ path: w.ws });
    await runSession(engine, w.ws);
    await waitFor(() => markersIn(markers).includes('SessionEnd'), 'SessionEnd marker');
    expect(markersIn(markers)).toEqual(['AfterAgent', 'AfterTool', 'BeforeTool', 'SessionEnd', 'SessionStart']);
  }, 120_000);

  it('runs the approved copy passed over ACP when a workspace .gemini/settings.json server has the same name', async () => {
    world = await geminiWorld(replies(() => world!.ws));
    const w = world;
    const markers = path.join(w.base, 'markers');
    fs.mkdirSync(markers);
    w.write({
      '.mcp.json': { mcpServers: { repo_tool: { command: 'sh', args: ['-c', `touch ${markers}/mcp-approved-copy`] } } },
      '.gemini/settings.json': { mcpServers: { repo_tool: { command: 'sh', args: ['-c', `touch ${markers}/mcp-gemini-settings`] } } },
    });
    const engine = w.openTrusted();
    const listing = await engine.hooks.list({ path: w.ws });
    const approved = listing.mcpServers.find((m) => m.name === 'repo_tool' && m.source.file === '.mcp.json');
    expect(approved, JSON.stringify(listing.mcpServers.map((m) => [m.name, m.source.file]))).toBeTruthy();
    await engine.hooks.approve({ path: w.ws }, [{ id: approved!.id, digest: approved!.digest }]);
    await runSession(engine, w.ws);
    expect(markersIn(markers)).toEqual(['mcp-approved-copy']);
  }, 120_000);

  it('still loads a nested rule after Gemini reads a file below it (Gemini reads from disk; Atrium maps the tool call\'s location)', async () => {
    world = await geminiWorld((req) => {
      const text = lastUserText(req);
      if (/read the notes/.test(text) && !endsWithFunctionResponse(req)) return { functionCall: { name: 'read_file', args: { file_path: path.join(world!.ws, 'pkg/notes.txt') } } };
      return { text: 'ok' };
    });
    const w = world;
    w.write({ 'AGENTS.md': 'Root rule: always be kind.\n', 'pkg/AGENTS.md': 'Nested rule: use tabs in pkg.\n', 'pkg/notes.txt': 'some notes\n' });
    const engine = w.openTrusted();
    const s = engine.sessions.create({ cwd: w.ws, agentId: 'gemini' });
    const { promptId } = engine.sessions.prompt(s.id, 'please read the notes');
    const done = engine.sessions.waitForTurn(s.id, promptId);
    void autoAllow(engine, s.id, done);
    expect(await done, lastTurnText(engine, s.id, { stops: true })).toBe('end_turn');
    expect(w.fake.main().some((r) => endsWithFunctionResponse(r) && JSON.stringify(lastParts(r)).includes('some notes')), 'Gemini read the file').toBe(true);
    expect(await promptAndWait(engine, s.id, 'thanks')).toBe('end_turn');
    const last = w.fake.main().at(-1)!;
    expect(occurrences(JSON.stringify(last.body.contents?.at(-1)), 'Nested rule: use tabs in pkg.')).toBe(1);
    expect(engine.policy.view(s.id).contextualRules.map((r) => r.relativePath)).toEqual(['pkg/AGENTS.md']);
  }, 120_000);

  it('gets GEMINI.md exactly once whatever Gemini\'s own trust: Atrium sends it where Gemini will not load it, and Gemini loads none in a workspace Atrium restricts', async () => {
    world = await geminiWorld(replies(() => world!.ws), { geminiTrust: false });
    const w = world;
    w.write({ 'GEMINI.md': `${RULE}\n` });
    // trusted in Atrium, not in Gemini's own trustedFolders.json: Atrium forces Gemini's trust, Gemini loads it
    let engine = w.openTrusted();
    let s = engine.sessions.create({ cwd: w.ws, agentId: 'gemini' });
    expect(await promptAndWait(engine, s.id, 'say hi')).toBe('end_turn');
    expect(occurrences(firstTurnText(w), RULE)).toBe(1);
    expect(engine.policy.view(s.id).staticRules).toMatchObject({ files: [], native: [{ relativePath: 'GEMINI.md' }] });
    await engine.close();

    // the workspace is a trusted subfolder of an untrusted repository (Atrium's partial trust), and Gemini's
    // own file trusts it: Gemini is told the folder is untrusted, so Atrium sends GEMINI.md
    w.setGeminiTrust(true);
    const repo = path.dirname(w.ws);
    execFileSync('git', ['init', '-q', repo]);
    w.fake.requests.length = 0;
    engine = w.open();
    engine.trust.set(resolveFolder(repo), 'untrusted');
    engine.trust.set(resolveFolder(w.ws), 'trusted');
    s = engine.sessions.create({ cwd: w.ws, agentId: 'gemini' });
    expect(await promptAndWait(engine, s.id, 'say hi'), lastTurnText(engine, s.id, { stops: true })).toBe('end_turn');
    expect(occurrences(firstTurnText(w), RULE)).toBe(1);
    expect(engine.policy.view(s.id).staticRules).toMatchObject({ files: [{ relativePath: 'proj/GEMINI.md' }], native: [] });
    await engine.close();

    // restricted in Atrium (project rules listed by name only), trusted in Gemini's own file: Gemini loads none either
    w.fake.requests.length = 0;
    engine = w.open();
    engine.trust.set(resolveFolder(w.ws), 'untrusted');
    s = engine.sessions.create({ cwd: w.ws, agentId: 'gemini' });
    expect(await promptAndWait(engine, s.id, 'say hi'), lastTurnText(engine, s.id, { stops: true })).toBe('end_turn');
    expect(firstTurnText(w)).toContain('say hi');
    expect(occurrences(firstTurnText(w), RULE)).toBe(0);
  }, 120_000);

  it('isolates Gemini launched as a custom command it recognises (node <the package\'s bin>) like the preset', async () => {
    world = await geminiWorld(replies(() => world!.ws));
    const w = world;
    const markers = path.join(w.base, 'markers');
    fs.mkdirSync(markers);
    w.write({ 'GEMINI.md': `${RULE}\n`, '.gemini/settings.json': repoSettings(markers) });
    const marker = await installCachedPreset('gemini', w.dataDir);
    const engine = w.openTrusted();
    engine.sessions.agents.define({ id: 'my-gemini', name: 'My Gemini', command: process.execPath, args: [marker.entry, '--acp'], env: {} });
    const id = await runSession(engine, w.ws, 'my-gemini');
    expect(engine.policy.view(id).agent.isolated).toBe(true);
    expect(markersIn(markers)).toEqual([]);
    expect(occurrences(firstTurnText(w), RULE)).toBe(1);
    expect(fs.existsSync(path.join(w.ws, 'new.txt'))).toBe(true);
  }, 120_000);

  it('control: an unrecognised wrapper script around the same Gemini runs the repository\'s hooks by itself (so the tests above can fail)', async () => {
    world = await geminiWorld(replies(() => world!.ws));
    const w = world;
    const markers = path.join(w.base, 'markers');
    fs.mkdirSync(markers);
    w.write({ '.gemini/settings.json': repoSettings(markers) });
    const marker = await installCachedPreset('gemini', w.dataDir);
    // a wrapper script Atrium cannot see into: no Gemini isolation
    const wrapper = path.join(w.base, 'run-gemini.sh');
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${marker.entry}" "$@"\n`, { mode: 0o755 });
    const engine = w.openTrusted();
    engine.sessions.agents.define({ id: 'wrapped', name: 'Wrapped', command: '/bin/sh', args: [wrapper, '--acp'], env: {} });
    const s = engine.sessions.create({ cwd: w.ws, agentId: 'wrapped' });
    expect(engine.policy.view(s.id).agent.isolated).toBe(false);
    expect(await promptAndWait(engine, s.id, 'say hi'), lastTurnText(engine, s.id, { stops: true })).toBe('end_turn');
    await waitFor(() => markersIn(markers).includes('BeforeAgent') && markersIn(markers).includes('mcp-repo_tool'), 'the repository hook and MCP server run by Gemini itself');
  }, 120_000);
});

describe('Gemini CLI isolation without a root-owned settings place, and with a broken system settings file', () => {
  it('runs Gemini in its untrusted mode when no folder passes Gemini\'s system settings check (as for a user who is not root)', async () => {
    world = await geminiWorld(replies(() => world!.ws));
    const w = world;
    const markers = path.join(w.base, 'markers');
    fs.mkdirSync(markers);
    w.write({ 'GEMINI.md': `${RULE}\n`, '.gemini/settings.json': repoSettings(markers) });
    // the user's own Gemini hook: Atrium has not approved it, so Gemini must not run it either
    const userSettings = path.join(w.home, '.gemini', 'settings.json');
    const user = JSON.parse(fs.readFileSync(userSettings, 'utf8'));
    fs.writeFileSync(userSettings, JSON.stringify({ ...user, hooks: { BeforeAgent: [{ hooks: [{ type: 'command', command: `touch ${markers}/user-BeforeAgent` }] }] } }));
    // the data dir is under /tmp (world-writable); make the home candidate's folder world-writable too
    const keyDir = path.dirname(geminiSettingsCandidates(w.dataDir)[1]);
    fs.mkdirSync(keyDir, { recursive: true });
    fs.chmodSync(keyDir, 0o777);
    try {
      const engine = w.openTrusted();
      const id = await runSession(engine, w.ws);
      expect(notices(engine, id, 'agent_isolation').map((n) => n.title)).toEqual(['Gemini CLI runs in its untrusted mode: no MCP server starts, Atrium sends GEMINI.md']);
      expect(markersIn(markers), 'no repository or unapproved user hook, no MCP server').toEqual([]);
      expect(occurrences(firstTurnText(w), RULE), 'GEMINI.md sent by Atrium, once').toBe(1);
      expect(engine.policy.view(id).staticRules?.files.map((f) => f.relativePath)).toEqual(['GEMINI.md']);
      expect(fs.readFileSync(path.join(w.ws, 'new.txt'), 'utf8')).toBe('made by gemini\n');
    } finally {
      fs.rmSync(keyDir, { recursive: true, force: true });
    }
  }, 120_000);

  it.runIf(process.getuid?.() === 0)('a malformed system settings file (named by GEMINI_CLI_SYSTEM_SETTINGS_PATH) is a warning; the session runs isolated', async () => {
    world = await geminiWorld(replies(() => world!.ws));
    const w = world;
    const markers = path.join(w.base, 'markers');
    fs.mkdirSync(markers);
    w.write({ '.gemini/settings.json': repoSettings(markers) });
    const etc = fs.mkdtempSync(path.join(os.userInfo().homedir, '.cache', 'atrium-gemini-etc-'));
    try {
      fs.writeFileSync(path.join(etc, 'settings.json'), '{ "hooksConfig": ', { mode: 0o600 });
      w.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH = path.join(etc, 'settings.json');
      const engine = w.openTrusted();
      const id = await runSession(engine, w.ws);
      expect(notices(engine, id, 'agent_isolation').map((n) => n.detail)).toEqual([expect.stringMatching(/are not valid JSON/)]);
      expect(markersIn(markers)).toEqual([]);
      expect(fs.existsSync(path.join(w.ws, 'new.txt'))).toBe(true);
    } finally {
      fs.rmSync(etc, { recursive: true, force: true });
    }
  }, 120_000);
});
