import path from 'node:path';
import { looksSecret, maskArgs, maskUrlSecrets, MASK } from './secrets';

/**
 * Which tool's variable syntax an MCP server file uses, i.e. what the tool that reads the file
 * expands in a server's `command`, `args`, `env` values, `url` and `headers` values before starting it:
 *
 * - `claude-code` — `.mcp.json`, plugin `.mcp.json` / manifest servers, settings `mcpServers`: `${NAME}`
 *   and `${NAME:-default}` (NAME = `[A-Za-z_][A-Za-z0-9_]*`; the default is used when NAME is unset,
 *   an empty value is kept). Claude Code docs, "MCP" → "Environment variable expansion in .mcp.json";
 *   Claude Code 2.1.318 (claude-agent-sdk 0.3.318) replaces
 *   `/\$\{([A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?)\}/g` and keeps an unset one literally with a warning.
 *   In a plugin, `${CLAUDE_PLUGIN_ROOT}` is the plugin's folder. Claude Code also BLANKS credentials
 *   (reads them as empty); {@link blankReason} says exactly what 2.1.318 does, which Atrium reproduces.
 *
 * In every dialect that expands, Atrium blanks credentials as Claude Code does ({@link blankReason}):
 * it expands before any agent sees the definition, so the agent's own protection no longer applies.
 * For `gemini-cli`, `cursor` and `vscode` that is Atrium's stricter policy, not the tool's behaviour.
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
  /** Variables read as empty because they are credentials ({@link blankReason}), each once. */
  blanked: BlankedVariable[];
}

/** A variable read as empty rather than substituted, and why ({@link blankReason}). */
export interface BlankedVariable {
  name: string;
  why: string;
}

/** Variables Atrium itself sets (its bridge token, data folder, …): a repository's server never gets them. */
const ATRIUM_OWN = /^ATRIUM_/i;

/** `NAME` and `INPUT_NAME` (GitHub Actions spells action inputs so), upper-cased. */
const withInput = (names: readonly string[]): string[] => names.flatMap((n) => [n, `INPUT_${n}`]);

/**
 * Claude Code 2.1.318's "plain" blank list (`t8().plain`: `Orn()` plus the `Tko` names): its own
 * credentials and session plumbing, read as empty in every expanded field, local ones included.
 * Omitted: names Claude Code adds only in its hosted, bridge or HIPAA modes (`YCs`, `eLs`, `eSo`, `eyt`).
 */
const CLAUDE_PLAIN = new Set([
  // o1n (with Cee, the *_FILE_DESCRIPTOR credentials)
  'CLAUDE_CODE_OAUTH_TOKEN', 'CLAUDE_CODE_SESSIONS_OAUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN_FILE_DESCRIPTOR', 'CLAUDE_CODE_GATEWAY_TOKEN_FILE_DESCRIPTOR',
  'CLAUDE_CODE_API_KEY_FILE_DESCRIPTOR', 'CLAUDE_CODE_WEBSOCKET_AUTH_FILE_DESCRIPTOR', 'CCR_AGENT_PROXY_TOKEN_FILE_DESCRIPTOR', 'CLAUDE_CODE_ARTIFACTS_API_TOKEN',
  'CLAUDE_CODE_SLACK_TAG_TOKEN', 'CLAUDE_CODE_HFI_BEARER_TOKEN', 'CLAUDE_BRIDGE_OAUTH_TOKEN', 'CLAUDE_TRUSTED_DEVICE_TOKEN', 'AGENT_PROXY_AUTH_TOKEN',
  'CLAUDE_CODE_MCP_SERVE_AUTH_TOKEN', 'CLAUDE_BG_AUTH_SNAPSHOT_PATH', 'CLAUDE_BG_SOCKET_TOKENS_PATH', 'CLAUDE_BG_RV_AUTH', 'CLAUDE_BG_PTY_AUTH', 'CLAUDE_BG_CLAIM_AUTH',
  // Orn()'s fixed names
  'CLAUDE_CODE_SUBSCRIPTION_TYPE', 'CLAUDE_CODE_RATE_LIMIT_TIER', 'CLAUDE_CODE_PLUGIN_ATTRIBUTION', 'CLAUDE_CODE_SKILL_ATTRIBUTION', 'CLAUDE_CODE_CONFIG_PROBE',
  'CLAUDE_CODE_MCP_SERVE_SETTINGS', 'CLAUDE_CODE_MCP_SERVE_ENABLED_PLUGINS', 'CLAUDE_CODE_REMOTE_TOOLS_FORWARD', 'CLAUDE_CODE_MCP_SERVE_WORKSPACE_ROOT',
  // Tko, with INPUT_ (C$t)
  ...withInput([
    'CLAUDE_CODE_OAUTH_REFRESH_TOKEN', 'CLAUDE_SESSION_INGRESS_TOKEN_FILE', 'CLAUDE_CODE_HOST_CREDS_FILE', 'CLAUDE_CODE_MESSAGING_TOKEN', 'MCP_CLIENT_SECRET',
    'MCP_XAA_IDP_CLIENT_SECRET', 'ENVIRONMENT_SERVICE_KEY', 'SELF_HOSTED_RUNNER_POOL_SECRET', 'SELF_HOSTED_RUNNER_ENVIRONMENT_SECRET',
  ]),
]);

/** Claude Code 2.1.318 `wQe`: its artifact and memory API endpoints and tokens and OpenTelemetry settings (`INPUT_` stripped). */
function claudeOwnService(upper: string): boolean {
  const n = upper.replace(/^INPUT_/, '');
  return (n.startsWith('CLAUDE_CODE_ARTIFACT') && n.endsWith('_BASE_URL')) || n === 'CLAUDE_CODE_MEMORY_API_BASE_URL' || n === 'CLAUDE_CODE_MEMORY_API_TOKEN' || n.startsWith('OTEL_') || n === 'CLAUDE_CODE_OTEL_DIAG_STDERR';
}

/**
 * Claude Code 2.1.318's extra remote-sink names (`Pko`: the `Rgt` credential list without
 * `GH_ENTERPRISE_TOKEN`, `GITHUB_ENTERPRISE_TOKEN`, `HF_TOKEN`, `HUGGING_FACE_HUB_TOKEN`,
 * `HUGGINGFACEHUB_API_TOKEN`, plus `Eko`), each also as `INPUT_NAME`. `GITHUB_TOKEN` and `GH_TOKEN`
 * are not in it: Claude Code sends them to a remote server (the GitHub MCP server needs one).
 */
const CLAUDE_REMOTE = new Set(
  withInput([
    // Rgt (`ro`) minus the Hugging Face and GitHub Enterprise tokens
    'ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN', 'CLAUDE_CODE_SESSIONS_OAUTH_TOKEN', 'CLAUDE_CODE_ARTIFACTS_API_TOKEN', 'CLAUDE_CODE_MEMORY_API_TOKEN',
    'CLAUDE_CODE_SLACK_TAG_TOKEN', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_FOUNDRY_API_KEY', 'ANTHROPIC_FOUNDRY_AUTH_TOKEN', 'ANTHROPIC_AWS_API_KEY',
    'ANTHROPIC_CUSTOM_HEADERS', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_BEARER_TOKEN_BEDROCK', 'GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_GHA_CREDS_PATH',
    'AZURE_CLIENT_SECRET', 'IDENTITY_HEADER', 'MSI_SECRET', 'AZURE_CLIENT_CERTIFICATE_PATH', 'AZURE_CLIENT_CERTIFICATE_PASSWORD', 'AZURE_PASSWORD',
    'AZURE_FEDERATED_TOKEN_FILE', 'AWS_WEB_IDENTITY_TOKEN_FILE', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI', 'AWS_CONTAINER_CREDENTIALS_FULL_URI',
    'AWS_CONTAINER_AUTHORIZATION_TOKEN', 'AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE', 'CLOUDSDK_AUTH_ACCESS_TOKEN', 'GOOGLE_OAUTH_ACCESS_TOKEN',
    'CLAUDE_CODE_OAUTH_REFRESH_TOKEN', 'NODE_AUTH_TOKEN', 'NUGET_AUTH_TOKEN', 'CARGO_REGISTRY_TOKEN', 'TWINE_PASSWORD', 'TWINE_USERNAME', 'PYPI_TOKEN',
    'PYPI_API_TOKEN', 'UV_PUBLISH_TOKEN', 'UV_PUBLISH_PASSWORD', 'UV_PUBLISH_USERNAME', 'FLIT_PASSWORD', 'FLIT_USERNAME', 'HATCH_INDEX_AUTH', 'HATCH_INDEX_USER',
    'GEM_HOST_API_KEY', 'MATURIN_PYPI_TOKEN', 'MATURIN_PASSWORD', 'MATURIN_USERNAME', 'CONAN_LOGIN_USERNAME', 'CONAN_PASSWORD', 'ANACONDA_API_TOKEN',
    'BINSTAR_API_TOKEN', 'VAULT_TOKEN', 'VAULT_AUTH_TOKEN', 'VAULT_ROLE_ID', 'VAULT_SECRET_ID', 'CONSUL_HTTP_TOKEN', 'CONSUL_HTTP_AUTH', 'NOMAD_TOKEN',
    'NOMAD_HTTP_AUTH', 'CI_REGISTRY_USER', 'CI_DEPLOY_USER', 'JF_USER', 'FASTLANE_SESSION', 'MATCH_GIT_BASIC_AUTHORIZATION', 'SONAR_TOKEN',
    'SONARQUBE_SCANNER_PARAMS', 'SONAR_SCANNER_JSON_PARAMS', 'SLACK_WEBHOOK_URL', 'SLACK_WEBHOOK', 'DISCORD_WEBHOOK', 'DISCORD_WEBHOOK_URL', 'TEAMS_WEBHOOK_URL',
    'MS_TEAMS_WEBHOOK_URI', 'ANTHROPIC_IDENTITY_TOKEN', 'ANTHROPIC_IDENTITY_TOKEN_FILE', 'CLOUDSDK_AUTH_ACCESS_TOKEN_FILE', 'CLOUDSDK_AUTH_AUTHORIZATION_TOKEN_FILE',
    'AZURE_AUTH_LOCATION', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_URL', 'ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RUNTIME_URL', 'ALL_INPUTS',
    'VSS_NUGET_EXTERNAL_FEED_ENDPOINTS', 'ARTIFACTS_CREDENTIALPROVIDER_EXTERNAL_FEED_ENDPOINTS', 'VSS_NUGET_ACCESSTOKEN', 'ARTIFACTS_CREDENTIALPROVIDER_ACCESSTOKEN',
    'COMPOSER_AUTH', 'OVERRIDE_GITHUB_TOKEN', 'DEFAULT_WORKFLOW_TOKEN', 'SSH_SIGNING_KEY',
    // Eko
    'CLAUDE_CODE_CLIENT_KEY_PASSPHRASE', 'CLAUDE_CODE_CLIENT_KEY', 'CLAUDE_CODE_CLIENT_CERT', 'HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'GOPROXY', 'GOAUTH',
    'PIP_INDEX_URL', 'PIP_EXTRA_INDEX_URL', 'UV_INDEX_URL', 'UV_EXTRA_INDEX_URL', 'UV_DEFAULT_INDEX', 'UV_INDEX', 'NPM_TOKEN', 'CODEARTIFACT_AUTH_TOKEN',
  ]),
);

/** Other agents' API keys Atrium starts agents with: blanked toward a remote server in the non-Claude dialects (Atrium's policy). */
const AGENT_KEYS = new Set(withInput(['OPENAI_API_KEY', 'CODEX_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_GENAI_API_KEY', 'AWS_ACCESS_KEY_ID']));

/** Claude Code 2.1.318 `Nn`: a name part that says credential (`TOKEN`, `SECRET`, `PASSWORD`, `*KEY`, `AUTH`, `_PASS`, …). */
const CREDENTIAL_PART =
  /((^|_)(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|KEY|AUTH|COOKIE|PAT|DSN|WEBHOOK|CREDENTIAL|CREDENTIALS|CREDS|APIKEY|ACCESSKEY|SECRETKEY|ACCOUNTKEY|PRIVATEKEY|AUTHKEY|SSHKEY|SIGNINGKEY|MASTERKEY|DEPLOYKEY|ENCRYPTIONKEY|PGPASSWORD|SSHPASS|(KEY|SECRET|PASSWORD|CREDENTIAL)S)|_(PWD|PASS|JWT)|(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE))(?=$|[_0-9])/i;

/**
 * Claude Code 2.1.318 `IWe`, the name rules of its remote-sink check: its own services
 * (`wQe`), git config injected through the environment, Cargo registry tokens, Bundler's
 * `BUNDLE_<HOST>__…` credentials, and credential-looking names behind the prefixes tools use to
 * pass credentials (`aBn`: `INPUT_`, `ORG_GRADLE_PROJECT_`, `POETRY_PYPI_TOKEN_`, `POETRY_HTTP_BASIC_`,
 * `CARGO_REGISTRIES_`, `CONAN_LOGIN_USERNAME_`, `CONAN_PASSWORD_`).
 */
function claudeRemoteName(upper: string): boolean {
  const n = upper.replace(/^INPUT_/, '');
  if (claudeOwnService(upper)) return true;
  if (/^GIT_CONFIG_(?:PARAMETERS|(?:KEY|VALUE)_\d+)$/.test(n) || /^CARGO_REGISTRIES_[A-Z0-9_]+_TOKEN$/.test(n)) return true;
  if (/^(?:INPUT_)?BUNDLE_(?!(?:BUILD|LOCAL|MIRROR|PATH|WITH|WITHOUT|CACHE|DISABLE|IGNORE|ONLY)__(?!(?:[A-Za-z0-9]+(?:___[A-Za-z0-9]+)*__)+[A-Za-z]{2,}$))\w*__/i.test(n)) return true;
  const p = n.replace(/-/g, '_');
  if (!/^(?:INPUT_|ORG_GRADLE_PROJECT_|POETRY_PYPI_TOKEN_|POETRY_HTTP_BASIC_|CARGO_REGISTRIES_|CONAN_LOGIN_USERNAME_|CONAN_PASSWORD_)/i.test(p)) return false;
  return /^(?:INPUT_)?(?:POETRY_HTTP_BASIC_|CONAN_LOGIN_USERNAME_)/i.test(p) || /USER(?:_?NAME)?_?[0-9]*$/i.test(p) || CREDENTIAL_PART.test(p.replace(/^AUTH0_/i, ''));
}

/** Claude Code 2.1.318 `DWe`: an Anthropic API base URL (`ANTHROPIC_*_BASE_URL`, `CLAUDE_CODE_API_BASE_URL`) whose value carries `user:password@`. */
function claudeBaseUrlWithCredentials(upper: string, value: string | undefined): boolean {
  const n = upper.replace(/^INPUT_/, '');
  if (!/^(?:ANTHROPIC_(?:[A-Z]+_)?BASE_URL|_CLAUDE_CODE_ASSUME_FIRST_PARTY_BASE_URL|CLAUDE_CODE_API_BASE_URL)$/.test(n) || value === undefined) return false;
  return /^\s*(?:[a-z][a-z0-9+.-]*:)?\/\/[^\s/?#@]+@/i.test(value);
}

/** Where an expanded string goes: `remote` for an http/sse/ws server's `url` and `headers`, `local` for the rest. */
export type ExpansionSink = 'local' | 'remote';

/**
 * Why `name` (value `value`, undefined when unset) is read as empty in a `sink` string of `dialect`,
 * or null when it is substituted. Claude Code 2.1.318 (`n8`, called by `Edt` for every server of
 * `.mcp.json`, settings and `--mcp-config`, by `RYr` for plugin servers and by the static-header
 * reader) blanks a variable that is in its plain list (`t8().plain`: its own OAuth tokens and
 * session plumbing, any field), or, when the string goes to a remote sink (`url` and `headers` of an
 * `sse`/`http`/`ws` server; never `command`, `args` or `env` of a stdio one), in its remote list
 * (`t8().remoteSink`: `ANTHROPIC_API_KEY`, cloud, registry, CI and webhook credentials, proxies;
 * not `GITHUB_TOKEN`/`GH_TOKEN`/`HF_TOKEN`) or matching its name rules (`IWe`, `DWe`). A blanked
 * variable becomes the empty string, even when a `:-default` is written (toward a remote sink also
 * when unset), Claude Code logs "MCP server config references credential variable(s) that are
 * never expanded toward a remote server: NAMES (read as empty)" to its debug log only, and still
 * starts the server; a `url` that so expands to nothing gets "'url' … expanded to an empty string"
 * and is not connected. Unset variables without default are kept literally with the warning
 * "Missing environment variables: …" and the server still starts. Not reproduced: `NWe`, the
 * extra value-shape rules Claude Code applies only when it scrubs its subprocess environment
 * (`CLAUDE_CODE_SUBPROCESS_ENV_SCRUB`, GitHub Actions); `wildcardVars` (values holding `*`, which
 * only its managed-policy URL matching uses). For `gemini-cli`, `cursor` and `vscode` Atrium
 * applies the same rules plus other agents' keys (`OPENAI_API_KEY`, `GEMINI_API_KEY`,
 * `GOOGLE_API_KEY`, …) toward a remote sink — Atrium's policy, stricter than those tools.
 */
export function blankReason(name: string, value: string | undefined, sink: ExpansionSink, dialect: ExpansionDialect): string | null {
  if (dialect === 'none') return null;
  const upper = name.toUpperCase();
  if (CLAUDE_PLAIN.has(upper) || claudeOwnService(upper)) return `${name} is Claude Code's own credential, which it never expands into an MCP server definition`;
  if (sink === 'local') return null;
  const remote = CLAUDE_REMOTE.has(upper) || claudeRemoteName(upper) || claudeBaseUrlWithCredentials(upper, value);
  if (remote || (dialect !== 'claude-code' && AGENT_KEYS.has(upper))) return `Claude Code does not send the credential ${name} to a remote server`;
  return null;
}

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
 * own `ATRIUM_*` variables and VS Code `${input:…}` prompts are `unresolvable`. A credential
 * ({@link blankReason}; `sink` says whether the string goes to a remote server) is read as empty,
 * its default ignored, and listed in `blanked` whenever it is so read (toward a remote sink also when
 * unset, as Claude Code does). Pure; never throws.
 */
export function expandString(text: string, dialect: ExpansionDialect, ctx: ExpansionContext, key = '', sink: ExpansionSink = 'local'): ExpandedString {
  const matches = matchesIn(text, dialect);
  if (!matches.length) return { value: text, masked: text, missing: [], unresolvable: [], blanked: [] };
  let value = '';
  let masked = '';
  let at = 0;
  const missing: string[] = [];
  const unresolvable: UnresolvableReference[] = [];
  const blanked: BlankedVariable[] = [];
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
      const why = blankReason(ref.name, v, sink, dialect);
      // Claude Code 2.1.318: a blanked credential is "" even with a default; toward a remote sink also when unset
      if (why !== null && (v !== undefined || sink === 'remote')) {
        if (!blanked.some((b) => b.name === ref.name)) blanked.push({ name: ref.name, why });
        sub = '';
      } else if (typeof v === 'string') {
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
  return { value, masked, missing, unresolvable, blanked };
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
  /** The same for display: secret-looking substituted values masked, and in `url` secret query values and a password (`maskUrlSecrets`). */
  masked: { command: string | null; args: string[]; url: string | null; env: Record<string, string>; headers: Record<string, string> };
  /** Unset variables without a default, each once, in order of appearance. */
  missing: string[];
  unresolvable: UnresolvableReference[];
  /** Credentials read as empty ({@link blankReason}), each once, in order of appearance. */
  blanked: BlankedVariable[];
}

/**
 * Expands `command`, each of `args`, `url` and every `env` and `headers` value of a server the way
 * its file's tool does (see {@link ExpansionDialect}). `url` and `headers` go to a remote server
 * (Claude Code 2.1.318 `Bjn` passes `remoteSink` for exactly these), so credentials there are
 * blanked by the remote rules of {@link blankReason}. Pure; never throws.
 */
export function expandServer(s: ExpandableServer, dialect: ExpansionDialect, ctx: ExpansionContext): ExpandedServer {
  const missing: string[] = [];
  const unresolvable: UnresolvableReference[] = [];
  const blanked: BlankedVariable[] = [];
  const one = (text: string, key: string, sink: ExpansionSink = 'local'): ExpandedString => {
    const e = expandString(text, dialect, ctx, key, sink);
    for (const m of e.missing) if (!missing.includes(m)) missing.push(m);
    for (const b of e.blanked) if (!blanked.some((x) => x.name === b.name)) blanked.push(b);
    for (const u of e.unresolvable) if (!unresolvable.some((x) => x.text === u.text)) unresolvable.push(u);
    return e;
  };
  const command = s.command === null ? null : one(s.command, 'command');
  const args = s.args.map((a, i) => one(a, /^--?[\w-]+=/.test(a) ? a.slice(0, a.indexOf('=')) : (s.args[i - 1] ?? '')));
  const url = s.url === null ? null : one(s.url, 'url', 'remote');
  const env = Object.entries(s.env).map(([k, v]) => [k, one(v, k)] as const);
  const headers = Object.entries(s.headers).map(([k, v]) => [k, one(v, k, 'remote')] as const);
  return {
    command: command?.value ?? null,
    args: args.map((a) => a.value),
    url: url?.value ?? null,
    env: Object.fromEntries(env.map(([k, e]) => [k, e.value])),
    headers: Object.fromEntries(headers.map(([k, e]) => [k, e.value])),
    masked: {
      command: command?.masked ?? null,
      args: maskArgs(args.map((a) => a.masked)),
      url: url ? maskUrlSecrets(url.masked) : null,
      // a value whose name or whole expanded value looks secret is hidden entirely, as in the listing
      env: Object.fromEntries(env.map(([k, e]) => [k, looksSecret(k, e.value) ? MASK : e.masked])),
      headers: Object.fromEntries(headers.map(([k, e]) => [k, looksSecret(k, e.value) ? MASK : e.masked])),
    },
    missing,
    unresolvable,
    blanked,
  };
}

/**
 * The environment variables of a server's definition that are read as empty whatever their value
 * ({@link blankReason} by name: Claude Code's own credentials in any field, other credentials in
 * `url` and `headers`), each once, in order: what the trust review and the reader flag. Pure.
 */
export function credentialReferences(s: ExpandableServer, dialect: ExpansionDialect): BlankedVariable[] {
  const out: BlankedVariable[] = [];
  const scan = (text: string, sink: ExpansionSink) => {
    for (const r of referencesIn(text, dialect)) {
      if (r.kind !== 'env' || ATRIUM_OWN.test(r.name) || out.some((b) => b.name === r.name)) continue;
      const why = blankReason(r.name, undefined, sink, dialect);
      if (why !== null) out.push({ name: r.name, why });
    }
  };
  for (const t of [s.command ?? '', ...s.args, ...Object.values(s.env)]) scan(t, 'local');
  for (const t of [s.url ?? '', ...Object.values(s.headers)]) scan(t, 'remote');
  return out;
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
