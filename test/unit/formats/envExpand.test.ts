import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandServer, expandString, mcpExpansionDialect, referencesIn, serverReferences, type ExpansionContext } from '../../../src/main/core/formats/envExpand';
import { MASK } from '../../../src/main/core/formats/secrets';

const ctx = (env: Record<string, string | undefined>, pluginRoot: string | null = null): ExpansionContext => ({ env, workspaceFolder: '/work/proj', userHome: '/home/u', pluginRoot });

describe('Claude Code: docs "MCP" → "Environment variable expansion in .mcp.json" (${VAR}, ${VAR:-default}; Claude Code 2.1.318)', () => {
  it('expands ${VAR} from the environment and ${VAR:-default} to the default only when VAR is unset', () => {
    const env = { API_BASE_URL: 'https://api.internal', EMPTY: '' };
    expect(expandString('${API_BASE_URL}/mcp', 'claude-code', ctx(env)).value).toBe('https://api.internal/mcp');
    expect(expandString('${NOPE:-https://api.example.com}/mcp', 'claude-code', ctx(env)).value).toBe('https://api.example.com/mcp');
    // set but empty: Claude Code takes the (empty) value, not the default (unlike the shell's :-)
    expect(expandString('x${EMPTY:-dflt}y', 'claude-code', ctx(env)).value).toBe('xy');
  });

  it('keeps an unset variable without default literally and reports it missing (once)', () => {
    const e = expandString('Bearer ${API_KEY} ${API_KEY}', 'claude-code', ctx({}));
    expect(e.value).toBe('Bearer ${API_KEY} ${API_KEY}');
    expect(e.missing).toEqual(['API_KEY']);
  });

  it('does not expand the bare $VAR form, ${env:X} or names that are not identifiers', () => {
    expect(referencesIn('$HOME ${env:HOME} ${1X} ${A-B}', 'claude-code')).toEqual([]);
    expect(expandString('$HOME', 'claude-code', ctx({ HOME: '/h' })).value).toBe('$HOME');
  });

  it('expands ${CLAUDE_PLUGIN_ROOT} to the plugin folder, never from the environment', () => {
    const e = expandString('${CLAUDE_PLUGIN_ROOT}/server.js', 'claude-code', ctx({ CLAUDE_PLUGIN_ROOT: '/evil' }, '/work/proj/plugins/p'));
    expect(e.value).toBe('/work/proj/plugins/p/server.js');
    expect(expandString('${CLAUDE_PLUGIN_ROOT}/s.js', 'claude-code', ctx({ CLAUDE_PLUGIN_ROOT: '/evil' })).unresolvable).toHaveLength(1);
  });
});

describe('Gemini CLI: settings.json "$VAR_NAME or ${VAR_NAME}" (packages/cli/src/utils/envVarResolver.ts, with ${VAR:-default})', () => {
  it('expands $VAR, ${VAR} and ${VAR:-default}; an unset one without default stays literal', () => {
    const env = { TOKEN: 't0k', HOST: 'h.example' };
    expect(expandString('https://$HOST/${TOKEN}', 'gemini-cli', ctx(env)).value).toBe('https://h.example/t0k');
    expect(expandString('${PORT:-8080}', 'gemini-cli', ctx(env)).value).toBe('8080');
    const e = expandString('$MISSING-x', 'gemini-cli', ctx(env));
    expect(e.value).toBe('$MISSING-x');
    expect(e.missing).toEqual(['MISSING']);
  });
});

describe('Cursor docs "MCP" config interpolation: ${env:NAME}, ${userHome}, ${workspaceFolder}, ${workspaceFolderBasename}, ${pathSeparator}', () => {
  it('expands the predefined variables and ${env:NAME}; plain ${NAME} is not Cursor syntax and stays as written', () => {
    const e = expandString('${workspaceFolder}${/}${workspaceFolderBasename}:${userHome}:${env:TOK}:${TOK}', 'cursor', ctx({ TOK: 'v' }));
    expect(e.value).toBe(`/work/proj${path.sep}proj:/home/u:v:\${TOK}`);
    expect(e.missing).toEqual([]);
  });

  it('an unset ${env:NAME} is missing', () => {
    expect(expandString('${env:NOPE}', 'cursor', ctx({})).missing).toEqual(['NOPE']);
  });

  it('${input:…} is not Cursor syntax (passed literally)', () => {
    expect(referencesIn('${input:key}', 'cursor')).toEqual([]);
  });
});

describe('VS Code docs "MCP configuration reference": predefined variables, ${env:NAME}, ${input:ID}', () => {
  it('${input:ID} is a prompt Atrium cannot show: unresolvable, kept literally', () => {
    const e = expandString('Bearer ${input:api-key}', 'vscode', ctx({}));
    expect(e.value).toBe('Bearer ${input:api-key}');
    expect(e.unresolvable).toEqual([{ text: '${input:api-key}', why: expect.stringContaining('VS Code asks') }]);
    expect(referencesIn('${input:api-key} ${env:X}', 'vscode').map((r) => r.kind)).toEqual(['input', 'env']);
  });
});

describe('Codex config.toml does not expand (env_vars / bearer_token_env_var instead)', () => {
  it('passes values as written under the "none" dialect', () => {
    expect(mcpExpansionDialect('.codex/config.toml', 'claude')).toBe('none');
    expect(expandString('${HOME}', 'none', ctx({ HOME: '/h' })).value).toBe('${HOME}');
  });
});

describe('dialect of each MCP file Atrium reads', () => {
  it('maps files to the tool that reads them', () => {
    expect(mcpExpansionDialect('.mcp.json', 'claude')).toBe('claude-code');
    expect(mcpExpansionDialect('plugins/p/.mcp.json', 'plugin')).toBe('claude-code');
    expect(mcpExpansionDialect('.cursor/mcp.json', 'claude')).toBe('cursor');
    expect(mcpExpansionDialect('.vscode/mcp.json', 'claude')).toBe('vscode');
    expect(mcpExpansionDialect('.gemini/settings.json', 'claude')).toBe('gemini-cli');
    expect(mcpExpansionDialect('.blade/settings.json', 'claude')).toBe('none');
  });
});

describe('attacker view: what a definition reads is visible, secrets stay masked, Atrium\'s own variables are never handed out', () => {
  it('lists every variable of command, args, url, env and headers once', () => {
    const refs = serverReferences({ command: '${BIN:-node}', args: ['--k=${AWS_SECRET_ACCESS_KEY}'], url: 'https://x/${AWS_SECRET_ACCESS_KEY}', env: { A: '${HOME}' }, headers: { H: '${HOME}' } }, 'claude-code');
    expect(refs.map((r) => r.text)).toEqual(['${BIN:-node}', '${AWS_SECRET_ACCESS_KEY}', '${HOME}']);
  });

  it('masks substituted values whose variable or key looks secret, and keeps the rest visible', () => {
    const env = { AWS_SECRET_ACCESS_KEY: 'abc123', API_BASE: 'https://api.internal', PLAIN: 'hello' };
    const x = expandServer(
      { command: 'node', args: ['--token', '${PLAIN}', 'run-${PLAIN}'], url: '${API_BASE}/mcp?key=${AWS_SECRET_ACCESS_KEY}', env: { SAFE: '${PLAIN}', TOKEN: 'x${PLAIN}' }, headers: { Authorization: 'Bearer ${AWS_SECRET_ACCESS_KEY}', 'X-Path': '/p/${AWS_SECRET_ACCESS_KEY}' } },
      'claude-code',
      ctx(env),
    );
    expect(x.url).toBe('https://api.internal/mcp?key=abc123');
    expect(x.headers.Authorization).toBe('Bearer abc123');
    expect(x.masked.url).toBe('https://api.internal/mcp');
    expect(x.masked.headers).toEqual({ Authorization: MASK, 'X-Path': `/p/${MASK}` });
    expect(x.masked.env).toEqual({ SAFE: 'hello', TOKEN: MASK });
    expect(x.masked.args).toEqual(['--token', MASK, 'run-hello']);
    expect(JSON.stringify(x.masked)).not.toContain('abc123');
  });

  it('never expands ATRIUM_* (Atrium\'s own variables), even when set', () => {
    const e = expandString('${ATRIUM_BRIDGE_TOKEN}', 'claude-code', ctx({ ATRIUM_BRIDGE_TOKEN: 'secret' }));
    expect(e.value).toBe('${ATRIUM_BRIDGE_TOKEN}');
    expect(e.unresolvable[0].why).toContain("Atrium's own");
  });
});
