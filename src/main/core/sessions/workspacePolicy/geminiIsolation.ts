/**
 * Gemini CLI's isolation at launch (`gemini --acp`, @google/gemini-cli 0.61.0, read in its bundle):
 * a system settings file of Atrium's and the folder trust forced from Atrium's own verdict.
 *
 * Gemini merges settings as system defaults < user < workspace < system (`mergeSettings`), so the
 * system layer is the one a repository cannot override. `GEMINI_CLI_SYSTEM_SETTINGS_PATH` replaces
 * the system file's path (`getSystemSettingsPath`), so Atrium's file carries the real system file's
 * settings too, and `GEMINI_CLI_SYSTEM_DEFAULTS_PATH` keeps the real `system-defaults.json` (whose
 * default path is derived from the system settings path). Gemini silently skips a system file that is
 * not secure (`isFileAndDirectorySecureSync`: on POSIX the file and every folder above it, lexically
 * and after resolving symlinks, must be owned by uid 0 and not writable by group or others);
 * {@link geminiPathSecurity} replicates that check so Atrium never relies on a file Gemini ignores.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { AtriumError } from '../../../../shared/errors';
import { parseJsonText } from '../../formats/json';
import type { LaunchSpec } from '../supervisor';
import { toAcpServer } from './mcpFilter';
import type { PolicyCore, PolicyState } from './state';

/** Env var naming Gemini's system settings file (replaces `/etc/gemini-cli/settings.json`). */
export const GEMINI_SYSTEM_SETTINGS_ENV = 'GEMINI_CLI_SYSTEM_SETTINGS_PATH';
/** Env var naming Gemini's system defaults file (default: `system-defaults.json` beside the system settings). */
export const GEMINI_SYSTEM_DEFAULTS_ENV = 'GEMINI_CLI_SYSTEM_DEFAULTS_PATH';
/** Env var forcing Gemini's folder trust (`true`/`false`), checked before `trustedFolders.json` (`checkPathTrust`). */
export const GEMINI_TRUST_ENV = 'GEMINI_CLI_TRUST_WORKSPACE';
/**
 * The `mcp.allowed` entry used when no server is approved: Gemini treats an empty allow list as
 * "allow all" (`isBlockedBySettings`: `allowedNames.length > 0 && !includes`), so the list always
 * holds a name no server has.
 */
export const NO_APPROVED_SERVER = 'atrium-no-approved-server';

/** Gemini CLI's default system settings path on `platform` (`getSystemSettingsPath`). */
export function geminiDefaultSystemSettingsPath(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/GeminiCli/settings.json';
  if (platform === 'win32') return 'C:\\ProgramData\\gemini-cli\\settings.json';
  return '/etc/gemini-cli/settings.json';
}

/**
 * Whether Gemini loads GEMINI.md by itself for a workspace of this Atrium trust: Atrium forces
 * Gemini's folder trust from its own verdict ({@link geminiTrustEnv}), and Gemini loads no GEMINI.md
 * in a folder it does not trust. Only a fully trusted workspace counts.
 */
export function geminiLoadsRulesItself(trust: 'trusted' | 'partial' | 'restricted' | null | undefined): boolean {
  return trust === 'trusted';
}

/** `GEMINI_CLI_TRUST_WORKSPACE` for Atrium's verdict: "true" only for a trusted workspace, else "false". */
export function geminiTrustEnv(trust: 'trusted' | 'partial' | 'restricted' | null | undefined): 'true' | 'false' {
  return geminiLoadsRulesItself(trust) ? 'true' : 'false';
}

/** The result of {@link geminiPathSecurity}: secure, or the reason Gemini would skip the file. */
export type PathSecurity = { secure: true } | { secure: false; reason: string };

function statSecurity(p: string, st: fs.Stats): PathSecurity {
  if (st.uid !== 0) return { secure: false, reason: `${p} is not owned by root (uid ${st.uid})` };
  if ((st.mode & 0o022) !== 0) return { secure: false, reason: `${p} is writable by group or others (mode ${(st.mode & 0o7777).toString(8)})` };
  return { secure: true };
}

function ancestors(dir: string): string[] {
  const out: string[] = [];
  for (let cur = dir; ; ) {
    out.push(cur);
    const next = path.dirname(cur);
    if (next === cur) break;
    cur = next;
  }
  return out;
}

/**
 * Gemini CLI 0.61.0's check of a system settings file (`isFileAndDirectorySecureSync`, POSIX):
 * a missing file is "secure" (nothing to load); otherwise the file and every folder above it (its
 * path as given and its real path) must be owned by uid 0 and not group/other writable, and every
 * symlinked folder above it must be owned by uid 0. On Windows Gemini checks ACLs in PowerShell,
 * which Atrium does not replicate: the answer there is "not secure" (Atrium cannot tell).
 */
export function geminiPathSecurity(file: string, platform: NodeJS.Platform = process.platform): PathSecurity {
  if (platform === 'win32') return { secure: false, reason: 'Atrium cannot verify the Windows ACLs Gemini CLI requires of a system settings file' };
  const abs = path.resolve(file);
  if (!fs.existsSync(abs)) return { secure: true };
  let real = abs;
  try {
    real = fs.realpathSync(abs);
  } catch {
    real = abs;
  }
  const lexical = ancestors(path.dirname(abs));
  for (const dir of lexical) {
    try {
      const l = fs.lstatSync(dir);
      if (l.isSymbolicLink() && l.uid !== 0) return { secure: false, reason: `the symlinked folder ${dir} is not owned by root` };
    } catch {
      // Gemini ignores folders it cannot lstat here too
    }
  }
  const dirs = [...lexical, ...(real === abs ? [] : ancestors(path.dirname(real)))];
  for (const dir of dirs) {
    let st: fs.Stats;
    try {
      st = fs.statSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      return { secure: false, reason: `cannot check ${dir}: ${(error as Error).message}` };
    }
    const r = statSecurity(dir, st);
    if (!r.secure) return r;
  }
  for (const f of real === abs ? [abs] : [abs, real]) {
    const r = statSecurity(f, fs.statSync(f));
    if (!r.secure) return r;
  }
  return { secure: true };
}

/** The real system settings Gemini would have read: its settings, or `{}` with a warning (unreadable, malformed, or a file Gemini itself would skip). */
export function readGeminiSystemSettings(file: string): { settings: Record<string, unknown>; warning: string | null } {
  if (!fs.existsSync(file)) return { settings: {}, warning: null };
  const security = geminiPathSecurity(file);
  if (!security.secure) return { settings: {}, warning: `Gemini CLI would skip its system settings file ${file} (${security.reason}); Atrium does not merge it either.` };
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return { settings: {}, warning: `Cannot read Gemini CLI's system settings ${file}: ${(error as Error).message}. Atrium's isolation settings apply without it.` };
  }
  const parsed = parseJsonText(text, { jsonc: true });
  if (!parsed.ok) return { settings: {}, warning: `Gemini CLI's system settings ${file} are not valid JSON (line ${parsed.line}: ${parsed.message}); Atrium's isolation settings apply without them.` };
  if (!parsed.value || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) return { settings: {}, warning: `Gemini CLI's system settings ${file} are not a JSON object; Atrium's isolation settings apply without them.` };
  return { settings: parsed.value as Record<string, unknown>, warning: null };
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? { ...(v as Record<string, unknown>) } : {});
const strings = (v: unknown): string[] | null => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null);

/**
 * An approved server as a Gemini `mcpServers` entry, the same definition Atrium passes over ACP
 * (Gemini's `newSessionConfig` builds stdio ACP servers with the session folder as `cwd`, http ones
 * as `httpUrl`, sse ones as `url`).
 */
export function geminiServerEntry(server: acp.McpServer, cwd: string): Record<string, unknown> {
  const record = (pairs: ReadonlyArray<{ name: string; value: string }>) => Object.fromEntries(pairs.map((p) => [p.name, p.value]));
  if ('command' in server) return { command: server.command, args: [...server.args], env: record(server.env), cwd };
  if (server.type === 'http') return { httpUrl: server.url, headers: record(server.headers) };
  return { url: server.url, headers: record(server.headers) };
}

/**
 * The system settings Atrium gives Gemini: `base` (the real system settings) with Atrium's overrides.
 * Each override is a key the system layer wins for (Gemini 0.61.0 `mergeSettings`; arrays replace
 * unless the schema says union, `mcpServers` merges per server name, and `mcp.allowed` lists are
 * intersected across layers):
 * - `hooksConfig.enabled = false`: Gemini runs no hook of any layer (Atrium runs approved ones itself);
 * - `mcp.allowed` = the names of the approved servers Atrium passes over ACP (intersected with the
 *   real system list, if any; {@link NO_APPROVED_SERVER} when none): every other settings or
 *   extension server is blocked by name;
 * - `mcpServers.<name>` = each approved server's verified definition (`approved`, name → entry,
 *   {@link geminiServerEntry}): a user or workspace server of the same name is replaced by it, also
 *   in the process-wide configuration Gemini starts at ACP `initialize` (which has no ACP servers);
 * - `tools.confirmationRequired` += `mcp_<name>_*` per approved server: `mcp.allowed` also adds an
 *   ALLOW policy rule for the server's tools, which this (higher priority) rule turns back into a
 *   permission request;
 * - `mcp.serverCommand = ""`, `tools.discoveryCommand = ""`, `tools.callCommand = ""`: no command of
 *   a settings file runs to discover or call tools;
 * - `tools.allowed = []`: no tool is auto-approved by a settings file;
 * - `general.defaultApprovalMode = "default"`, `security.disableYoloMode = true`: edits and commands
 *   ask (no auto-edit or YOLO from a repository);
 * - `advanced.ignoreLocalEnv = true`: a project `.env` is not loaded (`.gemini/.env` in a trusted
 *   folder still is: Gemini checks it before this setting).
 */
export function geminiSystemSettings(base: Record<string, unknown>, approved: Readonly<Record<string, Record<string, unknown>>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  out.hooksConfig = { ...obj(base.hooksConfig), enabled: false };
  const mcp = obj(base.mcp);
  const adminAllowed = strings(mcp.allowed);
  const names = Object.keys(approved).filter((n) => !adminAllowed || adminAllowed.some((a) => a.toLowerCase().trim() === n.toLowerCase().trim()));
  mcp.allowed = names.length ? names : [NO_APPROVED_SERVER];
  mcp.serverCommand = '';
  out.mcp = mcp;
  const servers = obj(base.mcpServers);
  for (const n of names) servers[n] = approved[n];
  out.mcpServers = servers;
  const tools = obj(base.tools);
  tools.discoveryCommand = '';
  tools.callCommand = '';
  tools.allowed = [];
  tools.confirmationRequired = [...new Set([...(strings(tools.confirmationRequired) ?? []), ...names.map((n) => `mcp_${n}_*`)])];
  out.tools = tools;
  out.general = { ...obj(base.general), defaultApprovalMode: 'default' };
  out.security = { ...obj(base.security), disableYoloMode: true };
  out.advanced = { ...obj(base.advanced), ignoreLocalEnv: true };
  return out;
}

/** What {@link prepareGeminiLaunch} needs. */
export interface GeminiLaunchInput {
  /** The agent's environment as Atrium would launch it (the user's env included). */
  env: Record<string, string>;
  sessionId: string;
  /** Atrium's trust verdict for the session's workspace (its snapshot's). */
  trust: 'trusted' | 'partial' | 'restricted' | null | undefined;
  /** The MCP servers Atrium passes over ACP (approved, verified), as Gemini settings entries by name ({@link geminiServerEntry}). */
  approvedMcp: Readonly<Record<string, Record<string, unknown>>>;
  /** Folders to place the settings file in, tried in order; the first Gemini would accept wins. */
  candidates: readonly string[];
}

/** The result of {@link prepareGeminiLaunch}: the env to add, the settings file written, and warnings for the transcript. */
export interface GeminiLaunch {
  env: Record<string, string>;
  settingsPath: string;
  warnings: string[];
}

/**
 * Where Atrium may keep Gemini system settings: below the data dir, then below the account's own
 * home (from the password database, not `$HOME`, which an agent's env may point at a temp folder),
 * keyed by the data dir so two Atrium installs never share a file.
 */
export function geminiSettingsCandidates(dataDir: string): string[] {
  const key = crypto.createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  const out = [path.join(dataDir, 'agent-settings', 'gemini')];
  try {
    const home = os.userInfo().homedir;
    if (home) out.push(path.join(home, '.cache', 'atrium', key, 'gemini'));
  } catch {
    // no password entry: only the data dir
  }
  return out;
}

/**
 * Writes the session's Gemini system settings ({@link geminiSystemSettings} over the real system
 * file: `GEMINI_CLI_SYSTEM_SETTINGS_PATH` of `env` when set, else Gemini's default path) into the
 * first candidate folder where Gemini would accept it ({@link geminiPathSecurity}; folders are
 * created 0700, the file 0600), and returns the env that points Gemini at it, keeps the real system
 * defaults file, and forces Gemini's folder trust from Atrium's verdict. Fails closed: when no
 * candidate passes Gemini's check the session does not start.
 * @throws AtriumError AGENT_START_FAILED when no candidate folder is one Gemini would accept
 */
export function prepareGeminiLaunch(input: GeminiLaunchInput): GeminiLaunch {
  const warnings: string[] = [];
  const givenPath = input.env[GEMINI_SYSTEM_SETTINGS_ENV];
  const ours = (p: string) => input.candidates.some((c) => path.resolve(p).startsWith(path.resolve(c) + path.sep));
  const realPath = givenPath && !ours(givenPath) ? givenPath : geminiDefaultSystemSettingsPath();
  const real = readGeminiSystemSettings(realPath);
  if (real.warning) warnings.push(real.warning);
  const settings = geminiSystemSettings(real.settings, input.approvedMcp);
  const name = `${input.sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`;
  const tried: string[] = [];
  for (const dir of input.candidates) {
    const file = path.join(dir, name);
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const tmp = `${file}.${crypto.randomBytes(4).toString('hex')}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(settings, null, 2), { mode: 0o600 });
      fs.renameSync(tmp, file);
    } catch (error) {
      tried.push(`${dir}: ${(error as Error).message}`);
      continue;
    }
    const security = geminiPathSecurity(file);
    if (!security.secure) {
      fs.rmSync(file, { force: true });
      tried.push(`${dir}: ${security.reason}`);
      continue;
    }
    const env: Record<string, string> = {
      [GEMINI_SYSTEM_SETTINGS_ENV]: file,
      [GEMINI_TRUST_ENV]: geminiTrustEnv(input.trust),
    };
    if (!input.env[GEMINI_SYSTEM_DEFAULTS_ENV]) env[GEMINI_SYSTEM_DEFAULTS_ENV] = path.join(path.dirname(realPath), 'system-defaults.json');
    // Gemini's own override of the trust check must not contradict Atrium's
    if (input.env.GEMINI_RESTRICTED_MODE !== undefined && env[GEMINI_TRUST_ENV] === 'true') env.GEMINI_RESTRICTED_MODE = 'false';
    return { env, settingsPath: file, warnings };
  }
  const uid = process.getuid?.();
  const why = uid !== undefined && uid !== 0 ? ` Atrium runs as uid ${uid}, so no file it writes is owned by root: Gemini CLI sessions are isolated only when Atrium runs as root.` : '';
  throw new AtriumError(
    'AGENT_START_FAILED',
    `Atrium cannot isolate Gemini CLI here, so the session does not start. Gemini reads a system settings file only when the file and every folder above it are owned by root and not writable by group or others; no place Atrium may write passes that check (${tried.join('; ')}).${why}`,
  );
}

/** Removes a settings file written by {@link prepareGeminiLaunch} (never throws). */
export function removeGeminiSettings(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // already gone
  }
}

/** Gemini CLI's `--skip-trust` sets `GEMINI_CLI_TRUST_WORKSPACE=true` itself (yargs parse), so Atrium's launch drops it. */
function withoutSkipTrust(args: readonly string[]): string[] {
  return args.filter((a) => a !== '--skip-trust' && !a.startsWith('--skip-trust='));
}

const systemLayer = new Map<string, boolean>();

/**
 * Whether a system settings file of Atrium's can be placed where Gemini accepts it, for this data
 * dir (a probe file in each candidate folder, checked with {@link geminiPathSecurity}); remembered
 * per data dir for the life of the process, so the rules decision of a snapshot and the launch agree.
 */
export function geminiSystemLayerAvailable(dataDir: string): boolean {
  const key = path.resolve(dataDir);
  const known = systemLayer.get(key);
  if (known !== undefined) return known;
  let ok = false;
  for (const dir of geminiSettingsCandidates(dataDir)) {
    const probe = path.join(dir, `.probe-${crypto.randomBytes(4).toString('hex')}.json`);
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(probe, '{}', { mode: 0o600 });
      ok = geminiPathSecurity(probe).secure;
    } catch {
      ok = false;
    } finally {
      fs.rmSync(probe, { force: true });
    }
    if (ok) break;
  }
  systemLayer.set(key, ok);
  return ok;
}

/**
 * Whether Gemini loads GEMINI.md by itself in a session of this data dir and Atrium trust: only in
 * a trusted workspace, and only when Atrium can give Gemini its system settings (otherwise it runs
 * Gemini in the untrusted mode of {@link prepareGeminiUntrustedLaunch}).
 */
export function geminiLoadsRulesFor(dataDir: string, trust: 'trusted' | 'partial' | 'restricted' | null | undefined): boolean {
  return geminiLoadsRulesItself(trust) && geminiSystemLayerAvailable(dataDir);
}

/**
 * The launch when no system settings file can be placed where Gemini accepts it (Atrium does not run
 * as root): Gemini is told the folder is untrusted (`GEMINI_CLI_TRUST_WORKSPACE=false`), so it reads
 * nothing of the workspace's `.gemini/settings.json` and only auth variables of `.gemini/.env`, loads
 * no GEMINI.md (Atrium sends it: {@link geminiLoadsRulesFor}), starts no MCP server and runs no hook
 * (measured with Gemini CLI 0.61.0: neither the workspace's nor the user's hooks ran). The user's own
 * `~/.gemini/settings.json` still applies (e.g. its auto-approvals).
 */
export function prepareGeminiUntrustedLaunch(): GeminiLaunch {
  return { env: { [GEMINI_TRUST_ENV]: 'false' }, settingsPath: '', warnings: [] };
}

/**
 * The launch of a session whose agent has the Gemini CLI preset's configuration model (its preset,
 * or a recognised custom command line): {@link prepareGeminiLaunch} with the session's snapshot
 * trust and the MCP servers Atrium passes when Gemini can take Atrium's system settings
 * ({@link geminiSystemLayerAvailable}), else {@link prepareGeminiUntrustedLaunch} (with a notice);
 * its env added to the launch, `--skip-trust` removed; warnings become transcript notices.
 * @throws AtriumError AGENT_START_FAILED when the settings file cannot be placed after all (fail closed)
 */
export function geminiBeforeSpawn(core: PolicyCore, st: PolicyState, launch: LaunchSpec): LaunchSpec {
  let prepared: GeminiLaunch;
  if (geminiSystemLayerAvailable(core.deps.dataDir)) {
    const approvedMcp: Record<string, Record<string, unknown>> = {};
    for (const s of (st.mcp ?? []).map(toAcpServer)) if (s) approvedMcp[s.name] = geminiServerEntry(s, launch.cwd);
    prepared = prepareGeminiLaunch({
      env: launch.env,
      sessionId: st.sessionId,
      trust: st.row.snapshot?.trust ?? 'restricted',
      approvedMcp,
      candidates: geminiSettingsCandidates(core.deps.dataDir),
    });
  } else {
    prepared = prepareGeminiUntrustedLaunch();
    const uid = process.getuid?.();
    core.notice(st, {
      severity: 'warning',
      code: 'agent_isolation',
      title: 'Gemini CLI runs in its untrusted mode: no MCP server starts, Atrium sends GEMINI.md',
      detail: `Gemini CLI reads a system settings file only from a root-owned place, and Atrium ${uid !== undefined && uid !== 0 ? `runs as uid ${uid}` : 'found none'}. So Gemini is told this folder is untrusted: it reads nothing of the workspace's .gemini settings, runs no hook (Atrium runs the approved ones) and starts no MCP server (approved ones included); GEMINI.md goes with the first prompt.`,
    });
  }
  for (const w of prepared.warnings) core.notice(st, { severity: 'warning', code: 'agent_isolation', title: 'Gemini CLI settings not merged', detail: w });
  return { ...launch, args: withoutSkipTrust(launch.args), env: { ...launch.env, ...prepared.env } };
}

/** Removes the session's Gemini system settings files (after its agent stopped), and Atrium's folders for them once empty; never throws. */
export function removeGeminiSessionSettings(dataDir: string, sessionId: string): void {
  const name = `${sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`;
  for (const dir of geminiSettingsCandidates(dataDir)) {
    removeGeminiSettings(path.join(dir, name));
    for (const d of [dir, path.dirname(dir)]) {
      try {
        fs.rmdirSync(d);
      } catch {
        break; // not empty (another session's file) or gone
      }
    }
  }
}

/**
 * Client capabilities for Gemini CLI: no `fs.readTextFile`. Gemini 0.61.0's ACP connection rejects
 * a failed request with the plain JSON-RPC error object, which its `AcpFileSystemService` cannot
 * recognise as "file not found" (it tests `err instanceof Error`), so `write_file` of a new file
 * would fail whatever error Atrium returns; without the capability Gemini reads from disk itself
 * (writes still go through Atrium's `fs/write_text_file`).
 */
export function geminiClientCapabilities(caps: acp.ClientCapabilities): acp.ClientCapabilities {
  return { ...caps, fs: { ...(caps.fs ?? {}), readTextFile: false } };
}
