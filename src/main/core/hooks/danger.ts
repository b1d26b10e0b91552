import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { HookDanger, HookScript, HookUncovered } from '../../../shared/contract';
import { codeLoadingEnvNames } from './codeLoadingEnv';
import { isAncestorOrSelf } from '../workspaces/paths';
import { isRedirection, lexShell } from '../formats/shell/lex';
import { isLocalHost } from './http';

/**
 * Danger highlights for a literal command: a download piped to a shell,
 * `rm -rf`, `sudo`, writes outside the workspace, reads of `~/.ssh`/`~/.aws`/tokens or env secrets,
 * `eval`/base64 decoding, network tools. Heuristics that draw the eye; they decide nothing.
 */
export function commandDangers(command: string, ctx: { projectDir: string; homeDir: string }): HookDanger[] {
  const out: HookDanger[] = [];
  const add = (code: string, message: string) => {
    if (!out.some((d) => d.code === code)) out.push({ code, message });
  };
  if (/\b(curl|wget|iwr|Invoke-WebRequest|fetch)\b[^\n;]*\|\s*(sudo\s+)?(env\s+)?(ba|z|k|da|fi)?sh\b/.test(command) || /\|\s*(sudo\s+)?(python3?|node|perl|ruby|iex|Invoke-Expression)\b/.test(command) || /\$\(\s*(curl|wget)\b/.test(command) || /\b(ba|z)?sh\s+<\(\s*(curl|wget)/.test(command) || /\b(source|\.)\s+<\(/.test(command)) {
    add('download-exec', 'downloads code from the network and runs it');
  }
  if (/\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*f|-[a-zA-Z]*f[a-zA-Z]*[rR]|-[a-zA-Z]*[rR]|--recursive)\b/.test(command) || /\brm\s+-[a-zA-Z]*f[a-zA-Z]*\s+(\/|~|\$HOME)/.test(command)) {
    add('rm-rf', 'deletes files recursively or forcibly (rm -rf)');
  }
  if (/(^|[\s;&|(`])(sudo|doas|pkexec)\b/.test(command)) add('sudo', 'runs commands as another user (sudo)');
  if (/(~|\$HOME|\$\{HOME\}|\/home\/[^/\s]+|\/Users\/[^/\s]+)\/\.(ssh|aws|gnupg|kube|docker|netrc|npmrc|pypirc|git-credentials|config\/gh|config\/gcloud|azure)\b/.test(command) || /\bid_(rsa|ed25519|ecdsa|dsa)\b|\bcredentials(\.json)?\b|(^|[\s/'"])\.env(\.[\w.-]+)?\b|\.pem\b|\bkeychain\b|security\s+find-(generic|internet)-password/.test(command)) {
    add('secret-read', 'reads credential or secret files (~/.ssh, ~/.aws, .env, keys)');
  }
  if (/\$\{?[A-Z0-9_]*(TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|APIKEY|PRIVATE_KEY|ACCESS_KEY|CREDENTIALS?)[A-Z0-9_]*\}?/.test(command) || /(^|[\s;&|(`])(printenv|env)\s*($|[|;&>)])/.test(command) || /\/proc\/(self|\d+)\/environ/.test(command)) {
    add('env-secret', 'reads tokens or secrets from the environment');
  }
  if (/(^|[\s;&|(`])eval\b/.test(command) || /\b(ba|z)?sh\s+-c\s+["']?\$\(/.test(command) || /\bexec\s+["']?\$\(/.test(command)) add('eval', 'evaluates dynamically built code (eval)');
  if (/\bbase64\b|\bopenssl\s+(enc|base64)\b|\bxxd\s+-r\b|atob\(|b64decode/.test(command)) add('base64', 'encodes or decodes data (base64), a common way to hide what runs or what is sent');
  if (/(^|[\s;&|(`'"])(curl|wget|nc|ncat|netcat|socat|telnet|ftp|sftp|scp|ssh|rsync|Invoke-WebRequest|iwr|Invoke-RestMethod)\b/.test(command) || /\bhttps?:\/\//.test(command)) {
    add('network', 'contacts the network');
  }
  if (/(^|[\s;&|(`])(npx|bunx|pnpx|uvx)\s|(^|[\s;&|(`])(pnpm|yarn)\s+dlx\b|(^|[\s;&|(`])pipx\s+run\b|(^|[\s;&|(`])npm\s+(exec|x)\b|(^|[\s;&|(`])bun\s+x\b/.test(command)) {
    add('package-runner', 'runs a package fetched at run time (npx, uvx, bunx, pnpm dlx, pipx run)');
  }
  const outside = writesOutside(command, ctx);
  if (outside) add('write-outside', `writes outside the workspace (${outside})`);
  return out;
}

/** The first redirection or `tee`/`cp`/`mv` target outside the project folder, or null. */
function writesOutside(command: string, ctx: { projectDir: string; homeDir: string }): string | null {
  const lex = lexShell(command, (name) => (name === 'HOME' ? ctx.homeDir : name === 'CLAUDE_PROJECT_DIR' ? ctx.projectDir : undefined));
  const items = lex.items;
  const isOutside = (word: string) => {
    if (!word || word.startsWith('/dev/') || word.startsWith('&')) return false;
    if (!path.isAbsolute(word) && !word.startsWith('..')) return false;
    return !isAncestorOrSelf(ctx.projectDir, path.resolve(ctx.projectDir, word));
  };
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const next = items[i + 1];
    if (item.kind === 'op' && isRedirection(item.text) && !item.text.includes('<') && next?.kind === 'word' && isOutside(next.text)) return next.text;
    if (item.kind === 'word' && /^(tee|cp|mv|install|ln|dd)$/.test(path.basename(item.text))) {
      for (let j = i + 1; j < items.length && items[j].kind === 'word'; j++) {
        const w = items[j] as { text: string };
        const target = w.text.startsWith('of=') ? w.text.slice(3) : w.text;
        if (!w.text.startsWith('-') && j > i + (item.text === 'tee' ? 0 : 1) && isOutside(target)) return target;
      }
    }
  }
  return null;
}

/** A highlight for scripts a project hook runs from outside its workspace. */
export function scriptDangers(scripts: readonly HookScript[], scope: string): HookDanger[] {
  const outside = scripts.filter((s) => s.outsideWorkspace);
  if (outside.length === 0 || scope === 'user') return [];
  return [{ code: 'outside-script', message: `runs ${outside.map((s) => s.path).join(', ')}, outside the workspace` }];
}

/** Most bytes of one hashed script that danger highlights look at. */
const MAX_SCANNED_BYTES = 512 * 1024;

/**
 * Highlights found in the bodies of the hashed scripts (a script that pipes a download into `sh`
 * is as dangerous as a command that does): {@link commandDangers} over each text file's first
 * 512 KiB, each message prefixed with the script's shown path. Binary files are skipped.
 */
export async function scriptBodyDangers(scripts: ReadonlyArray<HookScript & { abs: string }>, ctx: { projectDir: string; homeDir: string }): Promise<HookDanger[]> {
  const out: HookDanger[] = [];
  for (const s of scripts) {
    let text: string;
    try {
      const fh = await fs.open(s.abs, 'r');
      try {
        const buf = Buffer.alloc(Math.min(MAX_SCANNED_BYTES, s.size));
        const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
        if (buf.subarray(0, bytesRead).includes(0)) continue;
        text = buf.subarray(0, bytesRead).toString('utf8');
      } finally {
        await fh.close();
      }
    } catch {
      continue;
    }
    for (const d of commandDangers(text, ctx)) out.push({ code: d.code, message: `${s.path}: ${d.message}` });
  }
  return out;
}

/** One danger mark per thing the digest does not cover ("not covered by the digest: …"). */
export function uncoveredDangers(uncovered: readonly HookUncovered[]): HookDanger[] {
  return uncovered.map((u) => ({ code: 'uncovered', message: `not covered by the digest: ${u.text} (${u.message})` }));
}

/** Highlights for an http hook's (or remote MCP server's) URL: plain http, loopback or private addresses. */
export function urlDangers(url: string, role: 'hook' | 'server' = 'hook'): HookDanger[] {
  try {
    const u = new URL(url);
    const out: HookDanger[] = [];
    if (u.protocol === 'http:') out.push({ code: 'http-insecure', message: role === 'hook' ? 'sends data over plain http (refused unless the host is allowed)' : 'connects over plain http' });
    const verb = role === 'hook' ? 'posts hook input to' : 'connects to';
    if (isLocalHost(u.hostname)) out.push({ code: 'network', message: `${verb} a local or private address (${u.hostname})` });
    else out.push({ code: 'network', message: `${verb} ${u.host}` });
    return out;
  } catch {
    return [];
  }
}

/**
 * Variables Atrium sets itself in every hook's environment (`HOME`, `CLAUDE_PROJECT_DIR`, every
 * `ATRIUM_*`, the plugin and format variables) plus `BASH_ENV` and `ENV`, which Atrium never passes
 * to a shell (they run a file outside the digest). A hook whose `env` names one of them is invalid:
 * the paths the digest was computed from (`$CLAUDE_PROJECT_DIR/x.sh`, `${CLAUDE_PLUGIN_ROOT}`,
 * `~`) must be the paths the command uses. Compared case-insensitively (Windows names are).
 */
const RESERVED_HOOK_ENV = /^(HOME|CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_NAME|GEMINI_PROJECT_DIR|BLADE_PROJECT_DIR|BLADE_SESSION_ID|BLADE_HOOK_EVENT|ATRIUM_.*|BASH_ENV|ENV)$/i;

/** The names of `names` a hook's `env` may not set (see {@link RESERVED_HOOK_ENV}), in order. */
export function reservedHookEnvNames(names: readonly string[]): string[] {
  return names.filter((n) => RESERVED_HOOK_ENV.test(n));
}

/**
 * Highlights for the `env` of a hook or an MCP server: variables that make programs load other code
 * or change which program a command resolves to (`PATH`, `NODE_OPTIONS`, `LD_*`, `DYLD_*`,
 * `PYTHONPATH`, `PERL5OPT`, `RUBYOPT`, ... — the trust review's list, `codeLoadingEnvNames`). What
 * they load is not covered by any digest. Names only; values are never shown here.
 */
export function envDangers(env: Record<string, unknown>, role: 'hook' | 'server' = 'server'): HookDanger[] {
  const loading = codeLoadingEnvNames(Object.keys(env));
  if (!loading.length) return [];
  const what = role === 'hook' ? 'the command' : 'the server';
  return [{ code: 'env-code', message: `sets ${loading.join(', ')}, which can make ${what} load or run other code than the digest covers` }];
}
