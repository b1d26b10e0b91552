import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/main/core/engine';
import { allowAll, codexWorld, trustCodexHooksNatively, type CodexWorld } from '../../support/codex';
import { endsWithToolOutput, lastInputText, type FakeOpenAIReply, type FakeOpenAIRequest } from '../../support/fakeOpenAI';
import { runCli } from '../../support/cli';
import { approveHooks, idleShutdown, notices, promptAndWait } from '../../support/policy';
import { waitFor } from '../../support/sessions';

/**
 * The pinned Codex preset (codex-acp 2.6.0 driving Codex 0.166.0) against a fake Responses endpoint,
 * with a fresh HOME in which Codex's OWN trust for the repository's hooks is present (what a user who
 * pressed "Trust all and continue" in Codex has), so only Atrium's isolation keeps them from running.
 * Marker files show what ran.
 */

const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const;
const RULE = 'Root rule: answer kindly, marker 7f3a.';
const PATCH = '*** Begin Patch\n*** Add File: patched.txt\n+patched\n*** End Patch\n';

let world: CodexWorld | null = null;
afterEach(async () => {
  await world?.closeAll();
  world = null;
});

/** The fake model: the last user message picks the turn; after a tool result it says "done". */
function model(req: FakeOpenAIRequest): FakeOpenAIReply {
  if (endsWithToolOutput(req)) return { text: 'done' };
  const t = lastInputText(req);
  if (t.includes('plain touch')) return { shell: 'touch plain.txt' };
  if (t.includes('escalated touch')) return { shell: 'touch escalated.txt', extra: { sandbox_permissions: 'require_escalated', justification: 'the test needs a file' } };
  if (t.includes('patch it')) return { customToolCall: { name: 'apply_patch', input: PATCH } };
  return { text: 'hello' };
}

/** A repository with one Codex hook per event and two MCP servers, each touching its own marker, whose config asks for no approvals. */
function layout(w: CodexWorld): { markers: string; ran: () => string[] } {
  const markers = path.join(w.ws, 'markers');
  fs.mkdirSync(markers);
  const hooks: Record<string, unknown> = {};
  const files: Record<string, string | object> = { 'AGENTS.md': `${RULE}\n` };
  for (const e of EVENTS) {
    files[`.codex/hooks/${e}.sh`] = `#!/bin/sh\ncat >/dev/null\necho run >> ${markers}/hook-${e}\nexit 0\n`;
    hooks[e] = [{ hooks: [{ type: 'command', command: `sh ${w.ws}/.codex/hooks/${e}.sh` }] }];
  }
  files['.codex/hooks.json'] = { hooks };
  files['.codex/mcp-a.sh'] = `#!/bin/sh\ntouch ${markers}/mcp-repo_a\nexit 0\n`;
  files['.codex/mcp-b.sh'] = `#!/bin/sh\ntouch ${markers}/mcp-repo_b\nexit 0\n`;
  // the repository also asks Codex never to ask and to run unsandboxed
  files['.codex/config.toml'] = `approval_policy = "never"\nsandbox_mode = "danger-full-access"\n\n[mcp_servers.repo_a]\ncommand = "sh"\nargs = ["${w.ws}/.codex/mcp-a.sh"]\n\n[mcp_servers.repo_b]\ncommand = "sh"\nargs = ["${w.ws}/.codex/mcp-b.sh"]\n`;
  w.write(files);
  return { markers, ran: () => fs.readdirSync(markers).sort() };
}

/** Prompts, answers every permission request with allow-once, and returns the stop reason and the requests' titles. */
async function promptAllowing(engine: Engine, sessionId: string, text: string) {
  const { promptId } = engine.sessions.prompt(sessionId, text);
  const done = engine.sessions.waitForTurn(sessionId, promptId);
  const seen: string[] = [];
  void allowAll(engine, sessionId, done, seen);
  return { stop: await done, asked: seen };
}

const mainRequests = (w: CodexWorld) => w.fake.requests.filter((r) => !r.side);
const count = (hay: string, needle: string) => hay.split(needle).length - 1;

describe('Codex sessions obey the workspace (real codex-acp, fake Responses endpoint)', () => {
  it('runs no unapproved repository hook or MCP server although Codex itself trusts them; AGENTS.md reaches the model once; edits and escalated commands ask first', async () => {
    world = await codexWorld(model);
    const { ran } = layout(world);
    expect((await trustCodexHooksNatively(world)).length, "Codex's own trust covers the five hooks").toBe(5);
    const engine = world.openTrusted();
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'codex' });

    expect(await promptAndWait(engine, s.id, 'say hi')).toBe('end_turn');
    const first = JSON.stringify(mainRequests(world)[0].body.input);
    expect(count(first, RULE), 'AGENTS.md text exactly once in the first model request').toBe(1);
    expect(notices(engine, s.id, 'rules_native')[0]?.title).toContain('AGENTS.md');

    // read-only mode: a plain command runs in Codex's read-only sandbox and cannot write
    const plain = await promptAllowing(engine, s.id, 'please plain touch');
    expect(plain.stop).toBe('end_turn');
    expect(fs.existsSync(path.join(world.ws, 'plain.txt'))).toBe(false);
    expect(JSON.stringify(mainRequests(world).at(-1)!.body.input?.at(-1))).toContain('Read-only file system');

    // a command outside the sandbox, and a patch, raise session/request_permission first
    const escalated = await promptAllowing(engine, s.id, 'please escalated touch');
    expect(escalated.asked.length, 'a permission request for the escalated command').toBe(1);
    expect(fs.existsSync(path.join(world.ws, 'escalated.txt'))).toBe(true);
    const patched = await promptAllowing(engine, s.id, 'please patch it');
    expect(patched.asked, 'a permission request for apply_patch').toHaveLength(1);
    expect(fs.readFileSync(path.join(world.ws, 'patched.txt'), 'utf8')).toBe('patched\n');

    expect(ran(), 'no repository hook or MCP server ran').toEqual([]);
    const view = engine.policy.view(s.id);
    expect(view.agent.isolated).toBe(true);
    expect(view.mcp.withheld.map((m) => m.name).sort()).toEqual(['repo_a', 'repo_b']);
    expect(notices(engine, s.id, 'hooks_skipped')[0]?.title).toMatch(/5 hooks skipped/);
  }, 120_000);

  it('in a workspace Atrium does not trust, Codex reads no AGENTS.md of its own (Atrium sends none either) and runs no repository hook or MCP server', async () => {
    world = await codexWorld(model);
    const { ran } = layout(world);
    await trustCodexHooksNatively(world);
    const engine = world.open();
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'codex' });
    expect(await promptAndWait(engine, s.id, 'say hi')).toBe('end_turn');
    const first = JSON.stringify(mainRequests(world)[0].body.input);
    expect(count(first, 'marker 7f3a'), 'no AGENTS.md text in a restricted workspace').toBe(0);
    expect(first, 'no AGENTS.md block at all').not.toContain('# AGENTS.md instructions');
    expect(engine.policy.view(s.id).staticRules?.native ?? []).toEqual([]);
    expect(ran(), 'no repository hook or MCP server ran').toEqual([]);
  }, 120_000);

  it('a denied escalated command never runs; a malformed CODEX_CONFIG of the user gives a warning and the session works', async () => {
    world = await codexWorld(model);
    world.env.CODEX_CONFIG = '{"features": ';
    const engine = world.openTrusted();
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'codex' });
    const { promptId } = engine.sessions.prompt(s.id, 'please escalated touch');
    const done = engine.sessions.waitForTurn(s.id, promptId);
    let denied = 0;
    void (async () => {
      let finished = false;
      void done.finally(() => (finished = true));
      while (!finished) {
        const p = engine.sessions.show(s.id).permissions[0];
        const reject = p?.options.find((o) => o.kind === 'reject_once');
        if (p && reject) {
          denied++;
          try {
            engine.sessions.answerPermission(s.id, p.requestId, reject.optionId);
          } catch {
            // answered meanwhile
          }
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    // Codex ends the turn when its request is declined
    expect(['end_turn', 'cancelled']).toContain(await done);
    expect(denied).toBeGreaterThanOrEqual(1);
    expect(notices(engine, s.id, 'codex_config_invalid')).toHaveLength(1);
    expect(fs.existsSync(path.join(world.ws, 'escalated.txt'))).toBe(false);
  }, 120_000);

  it('after `atrium hooks approve` / `atrium mcp approve` the approved hooks run through Atrium and the approved MCP server runs; hooks edited before or during the session and an unapproved server do not', async () => {
    world = await codexWorld(model);
    const { ran } = layout(world);
    await trustCodexHooksNatively(world);
    // trusted and approved with the CLI, as a user does: `atrium trust set`, `atrium hooks approve`, `atrium mcp approve`
    const cli = (args: string[]) => {
      const r = runCli([...args, '--data-dir', world!.dataDir], { HOME: world!.home });
      expect(r.status, `atrium ${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    cli(['trust', 'set', world.ws, 'trusted']);
    const listing = cli(['hooks', 'list', world.ws, '--json']).json as { hooks: Array<{ id: string; command: string | null }>; mcpServers: Array<{ id: string; name: string }> };
    const hookIds = EVENTS.map((e) => listing.hooks.find((h) => (h.command ?? '').includes(`${e}.sh`))!.id);
    cli(['hooks', 'approve', world.ws, ...hookIds]);
    cli(['mcp', 'approve', world.ws, listing.mcpServers.find((m) => m.name === 'repo_a')!.id]);
    const engine = world.open();
    // edited after approval: its digest no longer matches
    fs.appendFileSync(path.join(world.ws, '.codex/hooks/Stop.sh'), '# edited\n');

    const s = engine.sessions.create({ cwd: world.ws, agentId: 'codex' });
    expect(await promptAndWait(engine, s.id, 'say hi')).toBe('end_turn');
    const lines = (e: string) => fs.readFileSync(path.join(world!.ws, 'markers', `hook-${e}`), 'utf8').split('\n').filter(Boolean).length;
    expect(lines('UserPromptSubmit')).toBe(1);
    // edited while the session runs: re-hashed before the next run, so it does not run again
    fs.appendFileSync(path.join(world.ws, '.codex/hooks/UserPromptSubmit.sh'), '# edited\n');
    const patched = await promptAllowing(engine, s.id, 'please patch it');
    expect(patched.asked).toHaveLength(1);
    expect(lines('UserPromptSubmit')).toBe(1);
    expect(lines('SessionStart')).toBe(1);
    // PostToolUse runs in the background after the tool call completes
    await waitFor(() => engine.policy.view(s.id).hooks.runs.some((r) => r.event === 'PostToolUse'), 'the PostToolUse hook run').catch(() => undefined);
    expect(ran()).toEqual(['hook-PostToolUse', 'hook-PreToolUse', 'hook-SessionStart', 'hook-UserPromptSubmit', 'mcp-repo_a']);
    const runs = engine.policy.view(s.id).hooks.runs.map((r) => r.event);
    for (const e of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse']) expect(runs, `${e} ran through Atrium`).toContain(e);
    expect(runs).not.toContain('Stop');
    const ups = engine.policy.view(s.id).hooks.runs.filter((r) => r.event === 'UserPromptSubmit');
    expect(ups.map((r) => r.results.map((x) => x.skipped))).toEqual([[null], [expect.stringMatching(/modified/)]]);
    expect(engine.policy.view(s.id).mcp).toMatchObject({ passed: ['repo_a'], withheld: [{ name: 'repo_b' }] });
  }, 120_000);

  it("the user's own Codex hooks: Codex runs none itself, Atrium runs the approved one; still so after an idle shutdown and session/load", async () => {
    world = await codexWorld(model);
    const { markers, ran } = layout(world);
    const userHook = (e: string) => [{ hooks: [{ type: 'command', command: `sh ${world!.home}/.codex/user-${e}.sh` }] }];
    for (const e of ['SessionStart', 'UserPromptSubmit']) fs.writeFileSync(path.join(world.home, `.codex/user-${e}.sh`), `#!/bin/sh\ncat >/dev/null\necho run >> ${markers}/user-${e}\n`);
    fs.writeFileSync(path.join(world.home, '.codex/hooks.json'), JSON.stringify({ hooks: { SessionStart: userHook('SessionStart'), UserPromptSubmit: userHook('UserPromptSubmit') } }));
    expect((await trustCodexHooksNatively(world)).length, "Codex's own trust covers the user's and the repository's hooks").toBe(7);
    const engine = world.openTrusted({ idleMs: 300 });
    await approveHooks(engine, world.ws, ['user-SessionStart.sh']);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'codex' });
    expect(await promptAndWait(engine, s.id, 'say hi')).toBe('end_turn');
    expect(ran()).toEqual(['user-SessionStart']);
    await idleShutdown(engine, s.id);
    expect(await promptAndWait(engine, s.id, 'say hi again')).toBe('end_turn');
    expect(ran()).toEqual(['user-SessionStart']);
    // once at startup and once when the agent came back (Atrium's SessionStart "resume"), never by Codex too
    expect(fs.readFileSync(path.join(markers, 'user-SessionStart'), 'utf8')).toBe('run\nrun\n');
    expect(engine.policy.view(s.id).hooks.runs.filter((r) => r.event === 'SessionStart')).toHaveLength(2);
  }, 120_000);

  it('control: the same repository run by an unrecognised wrapper command runs its hooks and servers, and the session says Atrium cannot enforce that', async () => {
    world = await codexWorld(model);
    const { ran } = layout(world);
    await trustCodexHooksNatively(world);
    const wrapper = path.join(world.base, 'my-agent.sh');
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${world.entry}" "$@"\n`, { mode: 0o755 });
    const engine = world.openTrusted();
    engine.sessions.agents.define({ id: 'mine', name: 'Mine', command: wrapper, args: [], env: {} });
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'mine' });
    expect(await promptAndWait(engine, s.id, 'say hi')).toBe('end_turn');
    await waitFor(() => ran().includes('hook-Stop'), 'the Stop hook').catch(() => undefined);
    expect(ran()).toEqual(['hook-SessionStart', 'hook-Stop', 'hook-UserPromptSubmit', 'mcp-repo_a', 'mcp-repo_b']);
    const view = engine.policy.view(s.id);
    expect(view.agent.isolated).toBe(false);
    expect(notices(engine, s.id, 'hooks_skipped')[0]?.title).toMatch(/not run by Atrium/);
  }, 120_000);
});
