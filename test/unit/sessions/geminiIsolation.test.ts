import * as acp from '@agentclientprotocol/sdk';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toRequestError } from '../../../src/main/core/sessions/acpConnection';
import { fileAndTerminalMethods } from '../../../src/main/core/sessions/clientMethods';
import { HookChain } from '../../../src/main/core/sessions/hooks';
import type { TerminalManager } from '../../../src/main/core/sessions/terminals';
import {
  geminiClientCapabilities,
  geminiPathSecurity,
  geminiSystemSettings,
  NO_APPROVED_SERVER,
  prepareGeminiLaunch,
  readGeminiSystemSettings,
} from '../../../src/main/core/sessions/workspacePolicy/geminiIsolation';
import { tempDir } from '../../support/tempDir';

const isRoot = process.getuid?.() === 0 && process.platform !== 'win32';
/** Temp folders below the account's own home (root-owned chain when running as root), removed after each test. */
const secureDirs: string[] = [];
function secureTempDir(): string {
  const parent = path.join(os.userInfo().homedir, '.cache');
  fs.mkdirSync(parent, { recursive: true, mode: 0o700 });
  const dir = fs.mkdtempSync(path.join(parent, 'atrium-gemini-test-'));
  secureDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of secureDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('Gemini CLI system settings of Atrium (Gemini CLI 0.61.0 merge rules)', () => {
  it('keeps the real system settings and overrides hooks, MCP, tool commands, auto-approvals and the approval mode', () => {
    const base = { ui: { theme: 'x' }, hooksConfig: { enabled: true, notifications: true }, mcp: { excluded: ['bad'] }, tools: { sandbox: 'docker', allowed: ['run_shell_command'], confirmationRequired: ['glob'] } };
    const out = geminiSystemSettings(base, { approved_one: { command: 'x', args: [], env: {}, cwd: '/w' } });
    expect(out).toEqual({
      ui: { theme: 'x' },
      hooksConfig: { enabled: false, notifications: true },
      mcp: { excluded: ['bad'], allowed: ['approved_one'], serverCommand: '' },
      mcpServers: { approved_one: { command: 'x', args: [], env: {}, cwd: '/w' } },
      tools: { sandbox: 'docker', allowed: [], discoveryCommand: '', callCommand: '', confirmationRequired: ['glob', 'mcp_approved_one_*'] },
      general: { defaultApprovalMode: 'default' },
      security: { disableYoloMode: true },
      advanced: { ignoreLocalEnv: true },
    });
    // the input is not changed
    expect(base.hooksConfig.enabled).toBe(true);
  });

  it('never writes an empty mcp.allowed (Gemini reads it as "allow all") and narrows an administrator\'s allow list', () => {
    expect((geminiSystemSettings({}, {}).mcp as { allowed: string[] }).allowed).toEqual([NO_APPROVED_SERVER]);
    const narrowed = geminiSystemSettings({ mcp: { allowed: ['a', 'B'] } }, { b: {}, c: {} }).mcp as { allowed: string[] };
    expect(narrowed.allowed).toEqual(['b']);
    expect((geminiSystemSettings({ mcp: { allowed: ['a'] } }, { c: {} }).mcp as { allowed: string[] }).allowed).toEqual([NO_APPROVED_SERVER]);
  });

  it('withholds fs.readTextFile from Gemini and keeps the rest of the capabilities', () => {
    expect(geminiClientCapabilities({ fs: { readTextFile: true, writeTextFile: true }, terminal: true })).toEqual({ fs: { readTextFile: false, writeTextFile: true }, terminal: true });
  });
});

describe("Gemini CLI's check of a system settings file (isFileAndDirectorySecureSync)", () => {
  it('refuses a file below a world-writable folder (/tmp) and accepts a missing file', () => {
    const dir = tempDir('atrium-gemini-sec-');
    const file = path.join(dir, 'settings.json');
    expect(geminiPathSecurity(file)).toEqual({ secure: true });
    fs.writeFileSync(file, '{}');
    const r = geminiPathSecurity(file);
    expect(r.secure).toBe(false);
    expect(r.secure ? '' : r.reason).toMatch(isRoot ? /writable by group or others/ : /not owned by root/);
  });

  it.runIf(isRoot)('accepts a root-owned chain and refuses a group-writable folder or file in it', () => {
    const dir = secureTempDir();
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, '{}', { mode: 0o600 });
    expect(geminiPathSecurity(file)).toEqual({ secure: true });
    fs.chmodSync(file, 0o620);
    expect(geminiPathSecurity(file)).toMatchObject({ secure: false, reason: expect.stringMatching(/settings\.json is writable by group or others \(mode 620\)/) });
    fs.chmodSync(file, 0o600);
    fs.chmodSync(dir, 0o770);
    expect(geminiPathSecurity(file)).toMatchObject({ secure: false, reason: expect.stringContaining(`${dir} is writable by group or others`) });
  });

  it('refuses Windows, whose ACL check Atrium does not replicate', () => {
    expect(geminiPathSecurity('C:\\x\\settings.json', 'win32').secure).toBe(false);
  });
});

describe('prepareGeminiLaunch', () => {
  it('fails closed when no candidate folder passes Gemini\'s check, and leaves no file behind', () => {
    const dir = tempDir('atrium-gemini-cand-');
    const cand = path.join(dir, 'settings');
    let error: unknown = null;
    try {
      prepareGeminiLaunch({ env: {}, sessionId: 's1', trust: 'trusted', approvedMcp: {}, candidates: [cand] });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'AGENT_START_FAILED', message: expect.stringMatching(/^Atrium cannot isolate Gemini CLI here, so the session does not start\. .*owned by root/) });
    expect(fs.readdirSync(cand)).toEqual([]);
  });

  it.runIf(isRoot)('writes the merged settings where Gemini accepts them and sets trust from Atrium\'s verdict; a malformed real file is a warning', () => {
    const real = path.join(secureTempDir(), 'settings.json');
    fs.writeFileSync(real, '{ "ui": { "theme": "x" }, // comment\n "mcp": { "excluded": ["bad"] } }', { mode: 0o600 });
    const cand = path.join(secureTempDir(), 'gemini');
    const ok = prepareGeminiLaunch({ env: { GEMINI_CLI_SYSTEM_SETTINGS_PATH: real }, sessionId: 's/1', trust: 'trusted', approvedMcp: { srv: { command: 'srv' } }, candidates: [path.join(tempDir(), 'no'), cand] });
    expect(ok.warnings).toEqual([]);
    expect(ok.settingsPath).toBe(path.join(cand, 's_1.json'));
    expect(ok.env).toEqual({ GEMINI_CLI_SYSTEM_SETTINGS_PATH: ok.settingsPath, GEMINI_CLI_TRUST_WORKSPACE: 'true', GEMINI_CLI_SYSTEM_DEFAULTS_PATH: path.join(path.dirname(real), 'system-defaults.json') });
    const written = JSON.parse(fs.readFileSync(ok.settingsPath, 'utf8'));
    expect(written).toMatchObject({ ui: { theme: 'x' }, hooksConfig: { enabled: false }, mcp: { excluded: ['bad'], allowed: ['srv'] }, mcpServers: { srv: { command: 'srv' } } });
    expect(fs.statSync(ok.settingsPath).mode & 0o777).toBe(0o600);

    fs.writeFileSync(real, '{ "ui": ', { mode: 0o600 });
    const partial = prepareGeminiLaunch({ env: { GEMINI_CLI_SYSTEM_SETTINGS_PATH: real, GEMINI_RESTRICTED_MODE: 'true' }, sessionId: 's2', trust: 'partial', approvedMcp: {}, candidates: [cand] });
    expect(partial.warnings).toEqual([expect.stringMatching(/are not valid JSON \(line 1: .*\); Atrium's isolation settings apply without them\./)]);
    expect(partial.env.GEMINI_CLI_TRUST_WORKSPACE).toBe('false');
    expect(JSON.parse(fs.readFileSync(partial.settingsPath, 'utf8')).hooksConfig).toEqual({ enabled: false });
  });

  it('does not merge a real system file Gemini itself would skip', () => {
    const dir = tempDir('atrium-gemini-real-');
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, '{"hooksConfig":{"enabled":true}}');
    const r = readGeminiSystemSettings(file);
    expect(r.settings).toEqual({});
    expect(r.warning).toMatch(/^Gemini CLI would skip its system settings file .*; Atrium does not merge it either\.$/);
  });
});

describe('fs/read_text_file of a missing file', () => {
  it('answers the ACP SDK\'s resource-not-found error (code -32002, "Resource not found: <path>", data.uri), unchanged on the wire', async () => {
    const root = fs.realpathSync(tempDir('atrium-gemini-fs-'));
    const missing = path.join(root, 'new.txt');
    const events: unknown[] = [];
    const methods = fileAndTerminalMethods({
      agentSessionId: () => 'a1',
      roots: () => [root],
      append: (e) => events.push(e),
      hooks: new HookChain(),
      hookContext: () => ({ session: {} as never, append: () => undefined }),
      terminals: {} as TerminalManager,
    });
    let error: unknown = null;
    try {
      await methods.readTextFile({ sessionId: 'a1', path: missing });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(acp.RequestError);
    const wire = toRequestError(error).toResult();
    expect(wire).toEqual(acp.RequestError.resourceNotFound(missing).toResult());
    expect(wire).toEqual({ error: { code: -32002, message: `Resource not found: ${missing}`, data: { uri: missing } } });
    // an existing file still reads
    fs.writeFileSync(missing, 'x\n');
    expect(await methods.readTextFile({ sessionId: 'a1', path: missing })).toEqual({ content: 'x\n' });
  });
});
