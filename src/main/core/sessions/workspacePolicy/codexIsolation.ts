import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ApprovedMcpServer } from '../../hooks/service';
import type { PolicyNoticeData } from '../events';
import type { LaunchSpec } from '../supervisor';
import type { PolicyCore, PolicyState } from './state';

/**
 * How Atrium keeps Codex (codex-acp 2.6.0 driving Codex 0.166.0) from loading or running the
 * repository's and the user's own hooks and MCP servers by itself, read in codex-acp's source and
 * measured with the real agent (test/integration/sessions/codexReal.test.ts):
 *
 * - codex-acp marks every session root `trusted` for Codex (`createSessionConfig`), so the project's
 *   `.codex/config.toml` and `.codex/hooks.json` always load; Codex's own project trust never helps.
 * - env `CODEX_CONFIG` (JSON) becomes the config override of the session's main thread only. codex-acp
 *   also starts an ephemeral title-generation thread WITHOUT those overrides, and that thread ran the
 *   repository's SessionStart, UserPromptSubmit and Stop hooks and started its MCP servers. So the
 *   switches must also be Codex CLI overrides of the app-server process itself (`codex app-server -c
 *   key=value`), which apply to every thread: codex-acp starts `$CODEX_PATH` with its args, so Atrium
 *   points `CODEX_PATH` at a small launcher that appends Atrium's `-c` overrides and execs the real Codex.
 * - When ACP `mcpServers` are given, codex-acp skips those whose name any Codex config layer defines
 *   and replaces the whole `mcp_servers` key of `CODEX_CONFIG` with the rest. So approved servers are
 *   not passed over ACP to Codex: they go in the thread override as dotted keys
 *   (`"mcp_servers.<name>"`: the snapshot's verified definition, `enabled = true`), which survive that
 *   replacement and win over the app-server's `-c mcp_servers.<name>.enabled=false`.
 */

/** Codex's own name rule for MCP servers (a `-c` key path cannot carry other characters). */
const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

/** What {@link codexLaunch} needs to know about a session. */
export interface CodexIsolationInput {
  /** Names of the MCP servers Codex reads from the repository's `.codex/config.toml`. */
  configServerNames: readonly string[];
  /** The snapshot's approved servers (verified definitions) Codex should start. */
  approved: readonly ApprovedMcpServer[];
  /** A private folder for the launcher script (created). */
  launcherDir: string;
  /**
   * Whether the workspace is trusted in Atrium. When it is not, Codex is also kept from reading the
   * repository's AGENTS.md files (`project_doc_max_bytes = 0`, Codex's switch that turns project docs
   * off), as Atrium sends no project rules in restricted mode either.
   */
  trusted: boolean;
}

/** The isolated launch, and the notices to record in the session's transcript. */
export interface CodexLaunch {
  launch: LaunchSpec;
  notices: PolicyNoticeData[];
  /** The `-c` overrides given to the Codex app-server (key path → TOML value text). */
  cliOverrides: Array<[string, string]>;
  /** The JSON given as `CODEX_CONFIG`. */
  threadConfig: Record<string, unknown>;
}

/**
 * The user's own `CODEX_CONFIG` (JSON object) from the launch environment. Unset gives `{}`; text that
 * is not a JSON object gives `{}` and a warning (codex-acp would crash on it at start).
 */
export function parseUserCodexConfig(raw: string | undefined): { config: Record<string, unknown>; warning: string | null } {
  if (raw === undefined || raw.trim() === '') return { config: {}, warning: null };
  try {
    const v: unknown = JSON.parse(raw);
    if (isObject(v)) return { config: v, warning: null };
    return { config: {}, warning: 'CODEX_CONFIG in the environment is not a JSON object; Atrium replaced it with its own overrides.' };
  } catch (error) {
    return { config: {}, warning: `CODEX_CONFIG in the environment is not valid JSON (${(error as Error).message}); Atrium replaced it with its own overrides.` };
  }
}

/** A server's definition in Codex's `mcp_servers` shape (stdio or streamable HTTP), or null when Codex cannot take it. */
export function codexServerConfig(s: ApprovedMcpServer): Record<string, unknown> | null {
  if (s.refused) return null;
  if (s.command !== null && (s.transport === 'stdio' || !s.url)) return { command: s.command, args: s.args, env: s.env, cwd: s.cwd, enabled: true };
  if (s.url && (s.transport === 'http' || s.transport === 'streamable-http' || s.transport === 'streamableHttp')) return { url: s.url, http_headers: s.headers, enabled: true };
  return null;
}

/**
 * The isolated launch of codex-acp: `CODEX_CONFIG` = the user's own (without its `hooks`; its
 * `mcp_servers` as dotted keys, except names the repository defines) deep-merged with Atrium's thread
 * overrides, and
 * `CODEX_PATH` = a launcher that runs the real Codex app-server with Atrium's `-c` overrides:
 * `features.hooks=false` (Codex runs no hook itself; Atrium runs the approved ones at the ACP
 * boundary) and `mcp_servers.<name>.enabled=false` for every
 * server Codex reads from its config; the approved ones are switched on again, from the snapshot's
 * verified definition, in the thread override. Never throws: what cannot be isolated becomes a notice.
 */
export function codexLaunch(launch: LaunchSpec, input: CodexIsolationInput): CodexLaunch {
  const notices: PolicyNoticeData[] = [];
  const user = parseUserCodexConfig(launch.env.CODEX_CONFIG);
  if (user.warning) notices.push({ severity: 'warning', code: 'codex_config_invalid', title: 'Ignored a malformed CODEX_CONFIG', detail: user.warning });
  // the user's own hooks cannot run in Codex (hooks are off); their own servers stay, as dotted keys
  // like Atrium's (a nested `mcp_servers` in the same override could replace them, in any order)
  const { hooks: userHooks, mcp_servers: userServers, ...userRest } = user.config;
  const dropped = [userHooks !== undefined ? 'hooks' : null, ...Object.keys(userRest).filter((k) => /^hooks\./.test(k))].filter((x): x is string => x !== null);
  const kept = Object.fromEntries(Object.entries(userRest).filter(([k]) => !/^hooks\./.test(k)));
  if (isObject(userServers)) for (const [n, def] of Object.entries(userServers)) kept[`mcp_servers.${n}`] = def;
  if (dropped.length) {
    notices.push({ severity: 'warning', code: 'codex_config_dropped', title: `Left out ${dropped.join(', ')} of your CODEX_CONFIG`, detail: 'Codex runs no hooks under Atrium; Atrium runs the approved hooks of ~/.codex/hooks.json and the repository itself.' });
  }

  const skippedNames = input.configServerNames.filter((n) => !SERVER_NAME.test(n));
  const names = [...new Set(input.configServerNames.filter((n) => SERVER_NAME.test(n)))].sort();
  const cliOverrides: Array<[string, string]> = [
    ['features.hooks', 'false'],
    ...names.map((n): [string, string] => [`mcp_servers.${n}.enabled`, 'false']),
    ...(input.trusted ? [] : [['project_doc_max_bytes', '0'] as [string, string]]),
  ];

  // the thread override replaces the app-server's session flags for that thread (measured), so it repeats them
  const threadConfig: Record<string, unknown> = deepMerge(kept, { features: { hooks: false } });
  if (!input.trusted) threadConfig.project_doc_max_bytes = 0;
  for (const n of names) {
    // a repository server follows the repository's approval, whatever the user's CODEX_CONFIG says of that name
    delete threadConfig[`mcp_servers.${n}`];
    threadConfig[`mcp_servers.${n}.enabled`] = false;
  }
  const notPassed: string[] = [];
  for (const s of input.approved) {
    const def = SERVER_NAME.test(s.name) ? codexServerConfig(s) : null;
    if (def) {
      delete threadConfig[`mcp_servers.${s.name}.enabled`];
      threadConfig[`mcp_servers.${s.name}`] = def;
    } else notPassed.push(s.name);
  }
  if (notPassed.length || skippedNames.length) {
    notices.push({
      severity: 'warning',
      code: 'codex_mcp_unsupported',
      title: `Codex cannot be given ${[...notPassed, ...skippedNames].join(', ')}`,
      detail: 'Codex takes stdio and streamable HTTP MCP servers whose names use only letters, digits, "-" and "_".',
    });
  }

  const env: Record<string, string> = { ...launch.env, CODEX_CONFIG: JSON.stringify(threadConfig) };
  delete env.DISABLE_MCP_CONFIG_FILTERING;
  const real = realCodex(launch);
  if (!real || process.platform === 'win32') {
    notices.push({
      severity: 'warning',
      code: 'codex_isolation_partial',
      title: 'Codex runs with Atrium\'s switches on its main session only',
      detail: real
        ? 'On Windows Atrium cannot wrap the Codex app-server; codex-acp\'s title generation may still run the repository\'s hooks and MCP servers.'
        : 'Atrium could not find the Codex binary behind this command line (set CODEX_PATH); codex-acp\'s title generation may still run the repository\'s hooks and MCP servers.',
    });
    return { launch: { ...launch, env }, notices, cliOverrides, threadConfig };
  }
  env.CODEX_PATH = writeLauncher(input.launcherDir, real, cliOverrides);
  return { launch: { ...launch, env }, notices, cliOverrides, threadConfig };
}

/**
 * The real Codex command codex-acp would start: the user's `CODEX_PATH`, else `@openai/codex/bin/codex.js`
 * resolved from the codex-acp script in the launch (run with the launch's node, or `node` from PATH
 * when the script is the command itself), else null.
 */
function realCodex(launch: LaunchSpec): string[] | null {
  const own = launch.env.CODEX_PATH;
  if (own) return [own];
  // node <script> …, or the adapter's bin run directly (a symlink to its script, started by `env node`)
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return null;
    }
  };
  const candidates = [launch.command, ...launch.args].map((a) => ({ arg: a, file: real(a) }));
  const script = candidates.find((c) => c.file !== null && /\.(c|m)?js$/.test(c.file));
  if (!script?.file) return null;
  try {
    const codexJs = createRequire(script.file).resolve('@openai/codex/bin/codex.js');
    return script.arg === launch.command ? ['node', codexJs] : [launch.command, codexJs];
  } catch {
    return null;
  }
}

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Writes a `/bin/sh` launcher that runs `real` with its arguments and then Atrium's `-c` overrides; returns its path. */
function writeLauncher(dir: string, real: string[], overrides: Array<[string, string]>): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const args = overrides.flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  const text = `#!/bin/sh\n# Written by Atrium: the Codex app-server with Atrium's config overrides (hooks off, repository MCP servers off).\nexec ${real.map(shQuote).join(' ')} "$@" ${args.map(shQuote).join(' ')}\n`;
  const file = path.join(dir, 'codex-launcher.sh');
  fs.writeFileSync(file, text, { mode: 0o700 });
  fs.chmodSync(file, 0o700);
  return file;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `a` with `b` merged in (objects recursively; `b` wins otherwise). */
function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isObject(out[k]) && isObject(v) ? deepMerge(out[k] as Record<string, unknown>, v) : v;
  return out;
}

/**
 * Whether Codex reads the repository's AGENTS.md files by itself for a workspace of this Atrium trust:
 * only in a trusted one; otherwise Atrium's launch turns project docs off ({@link codexLaunch}).
 */
export function codexReadsProjectDocs(trust: 'trusted' | 'partial' | 'restricted' | null | undefined): boolean {
  return trust === 'trusted';
}

/**
 * {@link codexLaunch} for a session of the workspace policy: the servers to switch off are the ones
 * Atrium's listing finds now in the repository's `.codex/config.toml` (held-back ones included; the
 * user's own `~/.codex/config.toml` servers are not listed by Atrium and keep running), the approved ones are the snapshot's; notices go to the transcript. A listing that
 * fails leaves only the snapshot's names to switch off, with a warning.
 */
export async function isolateCodexLaunch(core: PolicyCore, st: PolicyState, launch: LaunchSpec): Promise<LaunchSpec> {
  let names: string[] = [];
  try {
    const listing = await core.deps.hooks.list({ path: st.execWorkspaceDir }, { includeHeldBack: true });
    names = listing.mcpServers.filter((s) => /(^|\/)\.codex\/config\.toml$/.test(s.source.file)).map((s) => s.name);
  } catch (error) {
    names = [...(st.row.snapshot?.mcp.withheld ?? []), ...(st.row.snapshot?.mcp.passed ?? [])].map((s) => s.name);
    core.notice(st, { severity: 'warning', code: 'codex_isolation_partial', title: 'Could not list the Codex MCP servers to switch off', detail: String((error as Error).message ?? error) });
  }
  const out = codexLaunch(launch, { configServerNames: names, approved: st.mcp ?? [], launcherDir: path.join(core.deps.dataDir, 'codex-launch', st.sessionId), trusted: codexReadsProjectDocs(st.row.snapshot?.trust) });
  for (const n of out.notices) core.notice(st, n);
  return out.launch;
}
