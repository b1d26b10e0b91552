import { describe, expect, it } from 'vitest';
import { createDispatcher, type Dispatcher } from '../../../src/main/core/dispatcher';
import { trustWorld, writeFiles, type TrustWorld } from './helpers';

function dispatcherFor(w: TrustWorld): Dispatcher {
  return createDispatcher(w.engine, {
    'app.info': () => ({ version: 't', host: 'browser', dataDir: w.dataDir, homeDir: w.home, capabilities: { nativeFolderPicker: false } }),
    'app.pickFolder': () => ({ path: null }),
  });
}

/** Values an attacker's repository plants; none may come back from `trust.readFile`. */
const SECRETS = ['sk-live-abcdef1234567890', 'plain-value-1', 'Bearer hdr-secret-2', 'cursor-3', 'vscode-4', 'claude-env-5', 'hook-env-6', 'gemini-7', 'gemini-hdr-8', 'codex-9', 'codex-hdr-10', 'codex-table-11', 'codex-multi-12', 'unicode-key-13', 'yaml-env-14', 'yaml-hdr-15', 'yaml-broken-16'];

const FILES: Record<string, string> = {
  '.mcp.json': JSON.stringify({ mcpServers: { db: { command: 'npx', args: ['-y', 'db-mcp'], env: { API_TOKEN: 'sk-live-abcdef1234567890', REGION: 'plain-value-1' } }, env: { type: 'http', url: 'https://mcp.example.com/x', headers: { Authorization: 'Bearer hdr-secret-2' } } } }, null, 2),
  '.cursor/mcp.json': '{\n  // JSONC comment stays\n  "mcpServers": { "c": { "command": "node", "env": { "K": "cursor-3", }, }, },\n}\n',
  '.vscode/mcp.json': JSON.stringify({ servers: { v: { type: 'stdio', command: 'python3', environment: { X: 'vscode-4' } } } }),
  '.claude/settings.json': JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'claude-env-5' }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo guard', env: { T: 'hook-env-6' } }] }] } }, null, 2),
  '.gemini/settings.json': '{"mcpServers":{"g":{"httpUrl":"https://g.example.com","env":{"\\u0041":"gemini-7"},"headers":{"X-Key":"gemini-hdr-8"}}}}',
  '.codex/config.toml': [
    'model = "o3"',
    '[mcp_servers.db]',
    'command = "npx"',
    'env = { API_TOKEN = "codex-9" }',
    "http_headers = { 'X-Api-Key' = 'codex-hdr-10' }",
    '[mcp_servers.db.env]',
    'EXTRA = "codex-table-11" # comment',
    'env_http_headers.Y = """codex-multi-12',
    'still secret"""',
    '[mcp_servers.other]',
    'command = "uvx"',
    '"\\u0065nv".Z = "unicode-key-13"',
    '',
  ].join('\n'),
  '.claude/agents/db.md': '---\nname: db\ndescription: talks to the db\nmcpServers:\n  pg:\n    command: npx\n    env:\n      PGPASSWORD: yaml-env-14\n    headers: { X-Key: "yaml-hdr-15" }\n---\nUse the pg server. env: words in the body stay.\n',
  '.claude/agents/broken.md': '---\nname: broken\nenv:\n  A: [unclosed\n  B: yaml-broken-16\n---\nbody\n',
};

describe('trust.readFile masks env and header values of config files (the review shows names only)', () => {
  it('returns every JSON/JSONC/TOML config file with its env, headers, environment and http_headers values as ••••••, names, commands and line numbers kept', async () => {
    const w = trustWorld();
    const dir = w.mkdir('hostile');
    writeFiles(dir, FILES);
    const d = dispatcherFor(w);
    const { workspace } = await d.call('workspaces.add', { path: dir });
    const { review } = await d.call('trust.review', { workspaceId: workspace.id });
    const paths = [...new Set(review.items.map((i) => i.path))];
    expect(paths).toEqual(expect.arrayContaining(Object.keys(FILES)));

    for (const rel of paths) {
      const file = await d.call('trust.readFile', { workspaceId: workspace.id, path: rel });
      for (const secret of SECRETS) expect(file.content, `${rel} shows ${secret}`).not.toContain(secret);
      expect(file.content.includes('still secret'), rel).toBe(false);
      if (FILES[rel]) expect(file.content.split('\n').length, `${rel} keeps its lines`).toBe(FILES[rel].split('\n').length);
    }

    const mcp = (await d.call('trust.readFile', { workspaceId: workspace.id, path: '.mcp.json' })).content;
    expect(mcp).toContain('"API_TOKEN": "••••••"');
    expect(mcp).toContain('"Authorization": "••••••"');
    expect(mcp).toContain('"db-mcp"');
    expect(mcp).toContain('https://mcp.example.com/x');
    expect(JSON.parse(mcp).mcpServers.env.type).toBe('http');
    const cursor = (await d.call('trust.readFile', { workspaceId: workspace.id, path: '.cursor/mcp.json' })).content;
    expect(cursor).toContain('// JSONC comment stays');
    const claude = (await d.call('trust.readFile', { workspaceId: workspace.id, path: '.claude/settings.json' })).content;
    expect(claude).toContain('"ANTHROPIC_BASE_URL": "••••••"');
    expect(claude).toContain('echo guard');
    const codex = (await d.call('trust.readFile', { workspaceId: workspace.id, path: '.codex/config.toml' })).content;
    expect(codex).toContain('env = { API_TOKEN = "••••••" }');
    expect(codex).toContain('EXTRA = "••••••" # comment');
    expect(codex).toContain('command = "uvx"');
    expect(codex).toContain('model = "o3"');
    const agent = (await d.call('trust.readFile', { workspaceId: workspace.id, path: '.claude/agents/db.md' })).content;
    expect(agent).toContain('PGPASSWORD: "••••••"');
    expect(agent).toContain('command: npx');
    expect(agent).toContain('env: words in the body stay.');
  });

  it('leaves other files and values outside env/header maps as they are', async () => {
    const w = trustWorld();
    const dir = w.mkdir('plain');
    writeFiles(dir, { 'CLAUDE.md': 'env: { "A": "shown-in-markdown" }', '.mcp.json': '{"mcpServers":{"env":{"command":"visible-command","args":["--x"]}}}' });
    const d = dispatcherFor(w);
    const { workspace } = await d.call('workspaces.add', { path: dir });
    expect((await d.call('trust.readFile', { workspaceId: workspace.id, path: 'CLAUDE.md' })).content).toContain('shown-in-markdown');
    expect((await d.call('trust.readFile', { workspaceId: workspace.id, path: '.mcp.json' })).content).toBe('{"mcpServers":{"env":{"command":"visible-command","args":["--x"]}}}');
  });
});
