import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventName } from '../../../src/shared/contract';
import { createEngine, type Engine } from '../../../src/main/core/engine';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';

/**
 * `atrium serve` (or the desktop app) and the CLI are separate processes on one database: what
 * the CLI writes must reach the running engine's surfaces and resource bundles without a restart.
 */
describe('writes by another Atrium process', { timeout: 120_000 }, () => {
  let engine: Engine | null = null;
  afterEach(async () => {
    await engine?.close();
    engine = null;
  });

  function setup() {
    const root = tempDir('atrium-external-');
    const home = path.join(root, 'home');
    const proj = path.join(home, 'src', 'proj');
    fs.mkdirSync(proj, { recursive: true });
    fs.writeFileSync(path.join(proj, 'AGENTS.md'), '# Project rules\n\nUse tabs.\n');
    fs.mkdirSync(path.join(proj, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(proj, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo done' }] }] } }));
    const dataDir = path.join(root, 'data');
    const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir], { HOME: home, USERPROFILE: home });
    engine = createEngine({ dataDir, homeDir: home, watchResources: false, externalWritePollMs: 50 });
    const seen: Array<{ event: EventName; payload: unknown }> = [];
    engine.bus.subscribe((event, payload) => seen.push({ event, payload }));
    return { proj, cli, engine, seen };
  }

  async function until<T>(check: () => T | undefined, what: string): Promise<T> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const value = check();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it('pushes the workspace list, trust changes (and revalidates bundles) and hook approvals made by the CLI', async () => {
    const { proj, cli, engine: e, seen } = setup();

    // a workspace added in a terminal appears in the running engine's pushed list
    expect(cli('workspace', 'add', proj, '--json').status).toBe(0);
    const listed = await until(() => seen.find((s) => s.event === 'workspacesChanged' && (s.payload as { workspaces: Array<{ path: string }> }).workspaces.some((w) => w.path === proj)), 'workspacesChanged');
    expect(listed).toBeDefined();
    const ws = e.workspaces.list().find((w) => w.path === proj)!;
    expect((await e.resources.resolve(proj)).rules.trust).toBe('restricted');

    // trust set in a terminal: trustChanged with the CLI's audit entry, then the bundle is trusted
    expect(cli('trust', 'set', proj, 'trusted', '--json').status).toBe(0);
    const trustEvent = await until(() => seen.find((s) => s.event === 'trustChanged'), 'trustChanged');
    expect(trustEvent.payload).toMatchObject({ changes: [{ path: proj, oldState: null, newState: 'trusted' }] });
    expect(seen.some((s) => s.event === 'workspacesChanged' && (s.payload as { workspaces: Array<{ id: string; trust: { state: string } }> }).workspaces.some((w) => w.id === ws.id && w.trust.state === 'trusted'))).toBe(true);
    // the cached bundle is revalidated in the background after trustChanged
    const deadline = Date.now() + 10_000;
    while ((await e.resources.resolve(proj)).rules.trust !== 'trusted' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect((await e.resources.resolve(proj)).rules.trust).toBe('trusted');

    // an approval recorded in a terminal refreshes the Hooks tabs
    const listing = await e.hooks.list({ path: proj });
    const hook = listing.hooks.find((h) => h.event === 'Stop')!;
    const approvals = () => seen.filter((s) => s.event === 'hooksChanged' && (s.payload as { reason?: string }).reason === 'approval').length;
    const before = approvals();
    expect(cli('hooks', 'approve', proj, hook.id, '--json').status).toBe(0);
    await until(() => (approvals() > before ? true : undefined), 'hooksChanged');
    expect((await e.hooks.list({ path: proj })).hooks.find((h) => h.id === hook.id)?.state).toBe('approved');

    // the engine's own writes are not announced twice as external ones
    const trustEvents = seen.filter((s) => s.event === 'trustChanged').length;
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.filter((s) => s.event === 'trustChanged').length).toBe(trustEvents);
  });
});
