import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blankReason, credentialReferences, expandServer, expandString, mcpExpansionDialect, referencesIn, serverReferences, type ExpansionContext } from '../../../src/main/core/formats/envExpand';
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
    const env = { MY_SERVICE_SECRET: 'abc123', API_BASE: 'https://api.internal', PLAIN: 'hello' };
    const x = expandServer(
      { command: 'node', args: ['--token', '${PLAIN}', 'run-${PLAIN}'], url: '${API_BASE}/mcp?key=${MY_SERVICE_SECRET}', env: { SAFE: '${PLAIN}', TOKEN: 'x${PLAIN}' }, headers: { Authorization: 'Bearer ${MY_SERVICE_SECRET}', 'X-Path': '/p/${MY_SERVICE_SECRET}' } },
      'claude-code',
      ctx(env),
    );
    expect(x.url).toBe('https://api.internal/mcp?key=abc123');
    expect(x.headers.Authorization).toBe('Bearer abc123');
    expect(x.masked.url).toBe('https://api.internal/mcp?key=••••••');
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

describe('Claude Code 2.1.318 blanks credentials in MCP server definitions (n8 with t8() blank lists; remoteSink for url and headers)', () => {
  const env = { ANTHROPIC_API_KEY: 'sk-ant-SENTINEL', CLAUDE_CODE_OAUTH_TOKEN: 'oauth-SENTINEL', GITHUB_TOKEN: 'ghp_gh', MY_SERVICE_TOKEN: 'svc', PROJ: '/p', OPENAI_API_KEY: 'sk-openai' };
  const http = { command: null, args: [], url: 'https://mcp.example/${PROJ}', env: {}, headers: { Authorization: 'Bearer ${ANTHROPIC_API_KEY}', 'X-GitHub': '${GITHUB_TOKEN}', 'X-Svc': '${MY_SERVICE_TOKEN}' } };

  it('reads ANTHROPIC_API_KEY as empty in the headers of a remote server, keeps GITHUB_TOKEN and ordinary variables (Rgt minus the GitHub/HF tokens; IWe needs a credential prefix)', () => {
    const x = expandServer(http, 'claude-code', ctx(env));
    expect(x.headers).toEqual({ Authorization: 'Bearer ', 'X-GitHub': 'ghp_gh', 'X-Svc': 'svc' });
    expect(x.url).toBe('https://mcp.example//p');
    expect(x.blanked).toEqual([{ name: 'ANTHROPIC_API_KEY', why: expect.stringContaining('does not send the credential ANTHROPIC_API_KEY to a remote server') }]);
    expect(x.missing).toEqual([]);
    expect(JSON.stringify(x)).not.toContain('SENTINEL');
  });

  it('passes ANTHROPIC_API_KEY to a stdio server\'s env (not a remote sink) but never Claude Code\'s own OAuth token (the plain list applies to every field)', () => {
    const x = expandServer({ command: 'node', args: ['--token=${CLAUDE_CODE_OAUTH_TOKEN}'], url: null, env: { KEY: '${ANTHROPIC_API_KEY}', DIR: '${PROJ}' }, headers: {} }, 'claude-code', ctx(env));
    expect(x.env).toEqual({ KEY: 'sk-ant-SENTINEL', DIR: '/p' });
    expect(x.args).toEqual(['--token=']);
    expect(x.blanked.map((b) => b.name)).toEqual(['CLAUDE_CODE_OAUTH_TOKEN']);
  });

  it('ignores a :-default for a blanked credential; toward a remote server even when it is unset (rt = listed && (set || remoteSink))', () => {
    // unset yet read as empty toward a remote sink: listed in blanked too, so every surface says so
    expect(expandString('Bearer ${ANTHROPIC_API_KEY}', 'claude-code', ctx({}), 'Authorization', 'remote')).toMatchObject({ value: 'Bearer ', blanked: [{ name: 'ANTHROPIC_API_KEY' }], missing: [] });
    expect(expandString('${ANTHROPIC_API_KEY:-fallback}', 'claude-code', ctx({}), 'Authorization', 'remote')).toMatchObject({ value: '', blanked: [{ name: 'ANTHROPIC_API_KEY' }], missing: [] });
    expect(expandString('${ANTHROPIC_API_KEY:-fallback}', 'claude-code', ctx(env), 'Authorization', 'remote')).toMatchObject({ value: '', blanked: [{ name: 'ANTHROPIC_API_KEY' }] });
    // locally an unset listed variable is simply unset: default, or missing
    expect(expandString('${CLAUDE_CODE_OAUTH_TOKEN:-x}', 'claude-code', ctx({})).value).toBe('x');
    expect(expandString('${CLAUDE_CODE_OAUTH_TOKEN}', 'claude-code', ctx({})).missing).toEqual(['CLAUDE_CODE_OAUTH_TOKEN']);
  });

  it('follows the name rules: lower-case spelling, INPUT_ prefix, AWS secrets, proxies, registry credentials behind a prefix, base URLs carrying user:password@', () => {
    expect(blankReason('anthropic_api_key', 'x', 'remote', 'claude-code')).not.toBeNull();
    expect(blankReason('INPUT_ANTHROPIC_API_KEY', 'x', 'remote', 'claude-code')).not.toBeNull();
    expect(blankReason('AWS_SECRET_ACCESS_KEY', 'x', 'remote', 'claude-code')).not.toBeNull();
    expect(blankReason('HTTPS_PROXY', 'x', 'remote', 'claude-code')).not.toBeNull();
    expect(blankReason('ORG_GRADLE_PROJECT_MAVEN_PASSWORD', 'x', 'remote', 'claude-code')).not.toBeNull();
    expect(blankReason('CARGO_REGISTRIES_MY_REG_TOKEN', 'x', 'remote', 'claude-code')).not.toBeNull();
    expect(blankReason('ANTHROPIC_BASE_URL', 'https://u:p@proxy.example', 'remote', 'claude-code')).not.toBeNull();
    expect(blankReason('ANTHROPIC_BASE_URL', 'https://proxy.example', 'remote', 'claude-code')).toBeNull();
    expect(blankReason('HF_TOKEN', 'x', 'remote', 'claude-code')).toBeNull();
    expect(blankReason('OTEL_EXPORTER_OTLP_HEADERS', 'x', 'local', 'claude-code')).not.toBeNull();
    expect(blankReason('AWS_SECRET_ACCESS_KEY', 'x', 'local', 'claude-code')).toBeNull();
  });

  it('Atrium\'s stricter policy for other dialects: the same rules plus other agents\' API keys toward a remote server; Claude\'s dialect keeps OPENAI_API_KEY as Claude Code does', () => {
    const h = { command: null, args: [], url: 'https://x.example/mcp', env: {}, headers: { A: '${env:ANTHROPIC_API_KEY}', O: '${env:OPENAI_API_KEY}' } };
    const x = expandServer(h, 'cursor', ctx(env));
    expect(x.headers).toEqual({ A: '', O: '' });
    expect(x.blanked.map((b) => b.name)).toEqual(['ANTHROPIC_API_KEY', 'OPENAI_API_KEY']);
    expect(expandServer({ ...h, headers: { O: '${OPENAI_API_KEY}' } }, 'claude-code', ctx(env)).headers).toEqual({ O: 'sk-openai' });
    expect(expandString('$GEMINI_API_KEY', 'gemini-cli', ctx({ GEMINI_API_KEY: 'g' }), 'x-goog-api-key', 'remote').value).toBe('');
    expect(expandString('$GEMINI_API_KEY', 'gemini-cli', ctx({ GEMINI_API_KEY: 'g' }), 'KEY', 'local').value).toBe('g');
  });

  it('credentialReferences names what is blanked whatever the environment, for the reader\'s warning and the trust review', () => {
    expect(credentialReferences(http, 'claude-code').map((b) => b.name)).toEqual(['ANTHROPIC_API_KEY']);
    expect(credentialReferences({ command: 'node', args: [], url: null, env: { K: '${ANTHROPIC_API_KEY}', T: '${CLAUDE_CODE_OAUTH_TOKEN}' }, headers: {} }, 'claude-code').map((b) => b.name)).toEqual(['CLAUDE_CODE_OAUTH_TOKEN']);
    expect(credentialReferences(http, 'none')).toEqual([]);
  });
});
