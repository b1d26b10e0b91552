import path from 'node:path';
import { redactUrl } from './maskValues';
import { looksSecret, maskArgs, MASK } from './secrets';

/**
 * Which tool's variable syntax an MCP server file uses, i.e. what the tool that reads the file
 * expands in a server's `command`, `args`, `env` values, `url` and `headers` values before starting it:
 *
 * - `claude-code` — `.mcp.json`, plugin `.mcp.json` / manifest servers, settings `mcpServers`: `${NAME}`
 *   and `${NAME:-default}` (NAME = `[A-Za-z_][A-Za-z0-9_]*`; the default is used when NAME is unset,
 *   an empty value is kept). Claude Code docs, "MCP" → "Environment variable expansion in .mcp.json";
 *   Claude Code 2.1.318 (claude-agent-sdk 0.3.318) replaces
 *   `/\$\{([A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?)\}/g` and keeps an unset one literally with a warning.
 *   In a plugin, `${CLAUDE_PLUGIN_ROOT}` is the plugin's folder.
 * - `gemini-cli` — `.gemini/settings.json`: `$NAME`, `${NAME}` and `${NAME:-default}` in every string
 *   of the settings (Gemini CLI `packages/cli/src/utils/envVarResolver.ts`,
 *   `/\$(?:(\w+)|{([^}]+?)(?::-([^}]*))?})/g`; an unset one without default stays literal).
 * - `cursor` — `.cursor/mcp.json`: `${env:NAME}`, `${userHome}`, `${workspaceFolder}`,
 *   `${workspaceFolderBasename}`, `${pathSeparator}` / `${/}` (Cursor docs, "Model Context
 *   Protocol" → config interpolation, in `command`, `args`, `env`, `url`, `headers`).
 * - `vscode` — `.vscode/mcp.json`: the same predefined variables plus `${input:ID}`, which VS Code
 *   asks the user for (VS Code docs, "MCP configuration reference"; VS Code itself does not forward a
 *   server needing `${input:…}` to a Copilot agent session). Atrium cannot ask, so such a server is
 *   withheld.
 * - `none` — `.codex/config.toml` (Codex does not expand; it forwards named variables with
 *   `env_vars` and reads `bearer_token_env_var` itself) and files of tools whose expansion Atrium has
 *   not verified (`.blade/*`): values are passed as written.
 */
export type ExpansionDialect = 'claude-code' | 'gemini-cli' | 'cursor' | 'vscode' | 'none';

/** One variable reference found in a string, as written. */
export interface VariableReference {
  /** The reference as written (`${API_KEY:-x}`, `$HOME`, `${env:TOKEN}`, `${input:key}`). */
  text: string;
  /** `env`: an environment variable; `builtin`: a value the tool supplies (workspace folder, home, plugin root); `input`: a prompt the tool would show. */
  kind: 'env' | 'builtin' | 'input';
  /** The variable name (`API_KEY`, `workspaceFolder`, `key` of `${input:key}`). */
  name: string;
  /** The `:-default` text, or null when there is none. */
  fallback: string | null;
}

/** What a variable reference may resolve against: the environment and the tool's own values. */
export interface ExpansionContext {
  /** The environment the agent would get (Atrium's own process environment unless a session says otherwise). */
  env: Readonly<Record<string, string | undefined>>;
  /** Absolute workspace folder (`${workspaceFolder}`). */
  workspaceFolder: string;
  /** Absolute home folder (`${userHome}`). */
  userHome: string;
  /** Absolute plugin folder for a plugin's servers (`${CLAUDE_PLUGIN_ROOT}`), else null. */
  pluginRoot: string | null;
}

/** A reference that cannot be expanded at all, with the reason shown to the user. */
export interface UnresolvableReference {
  text: string;
  why: string;
}

/** A string after expansion: the value passed on, the same with substituted secrets masked, and what failed. */
export interface ExpandedString {
  value: string;
  /** The value for display: substituted values whose variable name, surrounding key or value looks secret are `••••••`. */
  masked: string;
  /** Environment variables read that are unset and have no default (the literal reference is kept in `value`). */
  missing: string[];
  unresolvable: UnresolvableReference[];
}

/** Variables Atrium itself sets (its bridge token, data folder, …): a repository's server never gets them. */
const ATRIUM_OWN = /^ATRIUM_/i;

interface Match {
  index: number;
  ref: VariableReference;
}

function matchesIn(text: string, dialect: ExpansionDialect): Match[] {
  const out: Match[] = [];
  if (dialect === 'none' || !text.includes('$')) return out;
  if (dialect === 'claude-code') {
    for (const m of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g)) {
      const name = m[1];
      out.push({ index: m.index, ref: { text: m[0], kind: name === 'CLAUDE_PLUGIN_ROOT' ? 'builtin' : 'env', name, fallback: m[2] ?? null } });
    }
    return out;
  }
  if (dialect === 'gemini-cli') {
    for (const m of text.matchAll(/\$(?:(\w+)|\{([^}]+?)(?::-([^}]*))?\})/g)) {
      out.push({ index: m.index, ref: { text: m[0], kind: 'env', name: m[1] ?? m[2], fallback: m[3] ?? null } });
    }
    return out;
  }
  for (const m of text.matchAll(/\$\{([^}]+)\}/g)) {
    const inner = m[1];
    if (inner.startsWith('env:')) out.push({ index: m.index, ref: { text: m[0], kind: 'env', name: inner.slice(4), fallback: null } });
    else if (dialect === 'vscode' && inner.startsWith('input:')) out.push({ index: m.index, ref: { text: m[0], kind: 'input', name: inner.slice(6), fallback: null } });
    else if (['userHome', 'workspaceFolder', 'workspaceFolderBasename', 'pathSeparator', '/'].includes(inner)) out.push({ index: m.index, ref: { text: m[0], kind: 'builtin', name: inner, fallback: null } });
    // any other `${…}` is not one of this tool's MCP variables: it is passed literally
  }
  return out;
}

/** Every variable reference in `text` under `dialect`, in order (none for `none`). Pure; never throws. */
export function referencesIn(text: string, dialect: ExpansionDialect): VariableReference[] {
  return matchesIn(text, dialect).map((m) => m.ref);
}

function builtinValue(ref: VariableReference, ctx: ExpansionContext): string | null {
  switch (ref.name) {
    case 'CLAUDE_PLUGIN_ROOT':
      return ctx.pluginRoot;
    case 'userHome':
      return ctx.userHome;
    case 'workspaceFolder':
      return ctx.workspaceFolder;
    case 'workspaceFolderBasename':
      return path.basename(ctx.workspaceFolder);
    case 'pathSeparator':
    case '/':
      return path.sep;
    default:
      return null;
  }
}

/**
 * Expands the references of `text` the way `dialect`'s tool does, from `ctx`. `key` names what the
 * string is (an `env` or header name, an argument, `url`, `command`) and decides, with the variable
 * name and the value, whether a substituted value is masked in {@link ExpandedString.masked}. An
 * unset variable without a default keeps its literal reference and is listed in `missing`; Atrium's
 * own `ATRIUM_*` variables and VS Code `${input:…}` prompts are `unresolvable`. Pure; never throws.
 */
export function expandString(text: string, dialect: ExpansionDialect, ctx: ExpansionContext, key = ''): ExpandedString {
  const matches = matchesIn(text, dialect);
  if (!matches.length) return { value: text, masked: text, missing: [], unresolvable: [] };
  let value = '';
  let masked = '';
  let at = 0;
  const missing: string[] = [];
  const unresolvable: UnresolvableReference[] = [];
  for (const { index, ref } of matches) {
    value += text.slice(at, index);
    masked += text.slice(at, index);
    at = index + ref.text.length;
    let sub: string | null = null;
    let fromEnv = false;
    if (ref.kind === 'input') {
      unresolvable.push({ text: ref.text, why: 'VS Code asks the user for it; Atrium cannot' });
    } else if (ref.kind === 'builtin') {
      sub = builtinValue(ref, ctx);
      if (sub === null) unresolvable.push({ text: ref.text, why: 'the server is not a plugin server' });
    } else if (ATRIUM_OWN.test(ref.name)) {
      unresolvable.push({ text: ref.text, why: `${ref.name} is Atrium's own variable and is never passed to a repository's server` });
    } else {
      const v = ctx.env[ref.name];
      if (typeof v === 'string') {
        sub = v;
        fromEnv = true;
      } else if (ref.fallback !== null) sub = ref.fallback;
      else if (!missing.includes(ref.name)) missing.push(ref.name);
    }
    if (sub === null) {
      value += ref.text;
      masked += ref.text;
      continue;
    }
    value += sub;
    masked += fromEnv && (looksSecret(ref.name, sub) || looksSecret(key, sub)) ? MASK : sub;
  }
  value += text.slice(at);
  masked += text.slice(at);
  return { value, masked, missing, unresolvable };
}

/** The fields of an MCP server definition that its tool expands (values only; `env` and header names are kept). */
export interface ExpandableServer {
  command: string | null;
  args: readonly string[];
  url: string | null;
  env: Readonly<Record<string, string>>;
  headers: Readonly<Record<string, string>>;
}

/** An MCP server's expandable fields after expansion, the same masked for display, and what failed. */
export interface ExpandedServer {
  command: string | null;
  args: string[];
  url: string | null;
  env: Record<string, string>;
  headers: Record<string, string>;
  masked: { command: string | null; args: string[]; url: string | null; env: Record<string, string>; headers: Record<string, string> };
  /** Unset variables without a default, each once, in order of appearance. */
  missing: string[];
  unresolvable: UnresolvableReference[];
}

/**
 * Expands `command`, each of `args`, `url` and every `env` and `headers` value of a server the way
 * its file's tool does (see {@link ExpansionDialect}). Pure; never throws.
 */
export function expandServer(s: ExpandableServer, dialect: ExpansionDialect, ctx: ExpansionContext): ExpandedServer {
  const missing: string[] = [];
  const unresolvable: UnresolvableReference[] = [];
  const one = (text: string, key: string): ExpandedString => {
    const e = expandString(text, dialect, ctx, key);
    for (const m of e.missing) if (!missing.includes(m)) missing.push(m);
    for (const u of e.unresolvable) if (!unresolvable.some((x) => x.text === u.text)) unresolvable.push(u);
    return e;
  };
  const command = s.command === null ? null : one(s.command, 'command');
  const args = s.args.map((a, i) => one(a, /^--?[\w-]+=/.test(a) ? a.slice(0, a.indexOf('=')) : (s.args[i - 1] ?? '')));
  const url = s.url === null ? null : one(s.url, 'url');
  const env = Object.entries(s.env).map(([k, v]) => [k, one(v, k)] as const);
  const headers = Object.entries(s.headers).map(([k, v]) => [k, one(v, k)] as const);
  return {
    command: command?.value ?? null,
    args: args.map((a) => a.value),
    url: url?.value ?? null,
    env: Object.fromEntries(env.map(([k, e]) => [k, e.value])),
    headers: Object.fromEntries(headers.map(([k, e]) => [k, e.value])),
    masked: {
      command: command?.masked ?? null,
      args: maskArgs(args.map((a) => a.masked)),
      url: url ? redactUrl(url.masked) : null,
      // a value whose name or whole expanded value looks secret is hidden entirely, as in the listing
      env: Object.fromEntries(env.map(([k, e]) => [k, looksSecret(k, e.value) ? MASK : e.masked])),
      headers: Object.fromEntries(headers.map(([k, e]) => [k, looksSecret(k, e.value) ? MASK : e.masked])),
    },
    missing,
    unresolvable,
  };
}

/** Every reference of a server's expandable fields (what it reads), each distinct `text` once, in order. */
export function serverReferences(s: ExpandableServer, dialect: ExpansionDialect): VariableReference[] {
  const all = [s.command ?? '', ...s.args, s.url ?? '', ...Object.values(s.env), ...Object.values(s.headers)].flatMap((t) => referencesIn(t, dialect));
  const seen = new Set<string>();
  return all.filter((r) => (seen.has(r.text) ? false : (seen.add(r.text), true)));
}

/**
 * The dialect of an MCP server file (workspace-relative POSIX path) or, for a server map that is
 * not in such a file (a plugin manifest, a subagent's frontmatter), of the format it belongs to.
 */
export function mcpExpansionDialect(file: string, format: string): ExpansionDialect {
  if (file === '.cursor/mcp.json') return 'cursor';
  if (file === '.vscode/mcp.json') return 'vscode';
  if (file === '.gemini/settings.json') return 'gemini-cli';
  if (file === '.codex/config.toml' || file.startsWith('.blade/')) return 'none';
  return format === 'claude' || format === 'plugin' ? 'claude-code' : 'none';
}
