import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovedMcpServer } from '../../../src/main/core/hooks/service';
import { codexLaunch, parseUserCodexConfig } from '../../../src/main/core/sessions/workspacePolicy/codexIsolation';
import { tempDir } from '../../support/tempDir';

/** A fake codex-acp install: `<root>/node_modules/@agentclientprotocol/codex-acp/dist/index.js` and `@openai/codex/bin/codex.js`. */
function fakeInstall(): { entry: string; codexJs: string } {
  const root = tempDir('atrium-codex-iso-');
  const entry = path.join(root, 'node_modules/@agentclientprotocol/codex-acp/dist/index.js');
  const codexJs = path.join(root, 'node_modules/@openai/codex/bin/codex.js');
  for (const f of [entry, codexJs]) {
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, '');
  }
  fs.writeFileSync(path.join(root, 'node_modules/@openai/codex/package.json'), '{"name":"@openai/codex","version":"0.166.0"}');
  return { entry, codexJs };
}

const approved = (over: Partial<ApprovedMcpServer>): ApprovedMcpServer => ({
  id: 'm_1',
  name: 'repo_a',
  transport: 'stdio',
  command: 'sh',
  args: ['a.sh'],
  cwd: '/w',
  url: null,
  env: { K: 'v' },
  headers: {},
  digest: 'sha256:x',
  source: { scope: 'project', file: '.codex/config.toml', plugin: null, format: 'claude', absolutePath: '/w/.codex/config.toml' },
  refused: null,
  ...over,
});

describe('Codex isolation at launch (codex-acp 2.6.0 / Codex 0.166.0)', () => {
  it('reads the user CODEX_CONFIG: unset, an object, malformed JSON, a non-object', () => {
    expect(parseUserCodexConfig(undefined)).toEqual({ config: {}, warning: null });
    expect(parseUserCodexConfig('{"model":"m"}')).toEqual({ config: { model: 'm' }, warning: null });
    expect(parseUserCodexConfig('{"model": ').warning).toMatch(/not valid JSON/);
    expect(parseUserCodexConfig('[1]').warning).toMatch(/not a JSON object/);
  });

  it('turns Codex\'s project docs off (no AGENTS.md of its own) only where Atrium does not trust the workspace', () => {
    const { entry } = fakeInstall();
    const launch = { command: 'node', args: [entry], cwd: '/w', env: {} };
    const restricted = codexLaunch(launch, { configServerNames: [], approved: [], launcherDir: tempDir(), trusted: false });
    expect(JSON.parse(restricted.launch.env.CODEX_CONFIG).project_doc_max_bytes).toBe(0);
    expect(restricted.cliOverrides).toContainEqual(['project_doc_max_bytes', '0']);
    const trusted = codexLaunch(launch, { configServerNames: [], approved: [], launcherDir: tempDir(), trusted: true });
    expect(JSON.parse(trusted.launch.env.CODEX_CONFIG).project_doc_max_bytes).toBeUndefined();
    expect(trusted.cliOverrides.map(([k]) => k)).not.toContain('project_doc_max_bytes');
  });

  it('merges the user config with hooks off, switches every repository server off in the thread and the app-server, and on again only the approved one', () => {
    const { entry, codexJs } = fakeInstall();
    const dir = tempDir();
    const user = { model: 'gpt-5.5', features: { memories: true }, mcp_servers: { mine: { command: 'x' }, repo_b: { command: 'y' } }, hooks: { Stop: [] } };
    const out = codexLaunch(
      { command: 'node', args: [entry], cwd: '/w', env: { CODEX_CONFIG: JSON.stringify(user), DISABLE_MCP_CONFIG_FILTERING: 'true', HOME: '/h' } },
      { configServerNames: ['repo_a', 'repo_b', 'bad.name'], approved: [approved({})], launcherDir: dir, trusted: true },
    );
    const cfg = JSON.parse(out.launch.env.CODEX_CONFIG);
    expect(cfg).toEqual({
      model: 'gpt-5.5',
      features: { memories: true, hooks: false },
      'mcp_servers.mine': { command: 'x' },
      'mcp_servers.repo_b.enabled': false,
      'mcp_servers.repo_a': { command: 'sh', args: ['a.sh'], env: { K: 'v' }, cwd: '/w', enabled: true },
    });
    expect(out.launch.env.DISABLE_MCP_CONFIG_FILTERING).toBeUndefined();
    expect(out.notices.map((n) => n.code).sort()).toEqual(['codex_config_dropped', 'codex_mcp_unsupported']);
    expect(out.cliOverrides).toEqual([
      ['features.hooks', 'false'],
      ['mcp_servers.repo_a.enabled', 'false'],
      ['mcp_servers.repo_b.enabled', 'false'],
    ]);
    // the launcher runs the real Codex with codex-acp's args, then Atrium's -c overrides
    const launcher = out.launch.env.CODEX_PATH;
    expect(path.dirname(launcher)).toBe(dir);
    const text = fs.readFileSync(launcher, 'utf8');
    expect(text).toContain(`'${fs.realpathSync(codexJs)}' "$@" '-c' 'features.hooks=false'`);
    if (process.platform !== 'win32') {
      const echo = path.join(dir, 'echo.sh');
      fs.writeFileSync(echo, text.replace(/^exec '[^']*' '[^']*'/m, 'exec printf "%s\\n"'), { mode: 0o700 });
      expect(execFileSync(echo, ['app-server', '-c', "hooks={ a = 1 }"], { encoding: 'utf8' }).trim().split('\n')).toEqual([
        'app-server', '-c', 'hooks={ a = 1 }', '-c', 'features.hooks=false', '-c', 'mcp_servers.repo_a.enabled=false', '-c', 'mcp_servers.repo_b.enabled=false',
      ]);
    }
  });

  it('uses the user CODEX_PATH as the real Codex; without a Codex to find it keeps the thread override and warns', () => {
    const dir = tempDir();
    const own = codexLaunch({ command: 'node', args: ['/nowhere/index.js'], cwd: '/w', env: { CODEX_PATH: '/opt/codex' } }, { configServerNames: [], approved: [], launcherDir: dir, trusted: true });
    if (process.platform !== 'win32') expect(fs.readFileSync(own.launch.env.CODEX_PATH, 'utf8')).toContain(`exec '/opt/codex' "$@"`);
    const none = codexLaunch({ command: 'npx', args: ['-y', '@agentclientprotocol/codex-acp'], cwd: '/w', env: { CODEX_CONFIG: '{oops' } }, { configServerNames: ['repo_a'], approved: [], launcherDir: dir, trusted: true });
    expect(none.launch.env.CODEX_PATH).toBeUndefined();
    expect(JSON.parse(none.launch.env.CODEX_CONFIG)).toEqual({ features: { hooks: false }, 'mcp_servers.repo_a.enabled': false });
    expect(none.notices.map((n) => n.code)).toEqual(['codex_config_invalid', 'codex_isolation_partial']);
  });
});

describe('finding the real Codex behind a recognised command line', () => {
  it("the adapter's bin symlink run directly: node from PATH runs the resolved codex.js", () => {
    if (process.platform === 'win32') return;
    const { entry, codexJs } = fakeInstall();
    const bin = path.join(path.dirname(entry), '..', '..', '..', '.bin', 'codex-acp');
    fs.mkdirSync(path.dirname(bin), { recursive: true });
    fs.symlinkSync(entry, bin);
    const out = codexLaunch({ command: bin, args: [], cwd: '/w', env: {} }, { configServerNames: [], approved: [], launcherDir: tempDir(), trusted: true });
    expect(fs.readFileSync(out.launch.env.CODEX_PATH, 'utf8')).toContain(`exec 'node' '${fs.realpathSync(codexJs)}' "$@"`);
    expect(out.notices).toEqual([]);
  });
});
