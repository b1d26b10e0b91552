/**
 * What the coverage analysis knows about programs by name: package runners and installers (whose
 * code no digest can cover), shells, Node and Python launchers, other interpreters, wrappers that
 * run their arguments (`env`, `nice`, `timeout`, ...), inert builtins, operating-system folders, and
 * the rules for pinned package specs, inline code that loads other code and self-locating scripts.
 */
import type { ArgWord, FileKind } from './types';

/** Package runners: they fetch and run code chosen at run time, which no digest of the repository can cover. */
export const PACKAGE_RUNNERS: ReadonlyArray<{ program: string; sub?: string }> = [
  { program: 'npx' },
  { program: 'bunx' },
  { program: 'pnpx' },
  { program: 'uvx' },
  { program: 'pnpm', sub: 'dlx' },
  { program: 'pnpm', sub: 'exec' },
  { program: 'yarn', sub: 'dlx' },
  { program: 'yarn', sub: 'exec' },
  { program: 'npm', sub: 'exec' },
  { program: 'npm', sub: 'x' },
  { program: 'pipx', sub: 'run' },
  { program: 'uv', sub: 'run' },
  { program: 'uv', sub: 'tool' },
  { program: 'bun', sub: 'x' },
  { program: 'deno', sub: 'run' },
  { program: 'go', sub: 'run' },
  { program: 'cargo', sub: 'run' },
  { program: 'dotnet', sub: 'run' },
  { program: 'docker', sub: 'run' },
  { program: 'podman', sub: 'run' },
];

/** Package-manager subcommands that install (and so run dependency install scripts). */
export const INSTALLS = new Set(['install', 'i', 'ci', 'add', 'update', 'up', 'upgrade', 'create', 'init', 'rebuild']);
/** Shells and shell-like launchers: their file argument is a shell script, `-c` shell text. */
export const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'busybox']);
/** Node-compatible launchers: their file argument is a JavaScript/TypeScript program. */
export const NODES = new Set(['node', 'nodejs', 'tsx', 'ts-node', 'bun']);
/** Python interpreter names (`python`, `python3.12`, `pypy3`). */
export const PYTHONS = /^(python|python[23](\.\d+)?|pypy3?)$/;
/** Other interpreters whose first non-option argument is the script and `-e` (or `-c`) inline code. */
export const OTHER_INTERPRETERS = new Set(['ruby', 'perl', 'php', 'lua', 'luajit', 'Rscript', 'elixir', 'osascript', 'pwsh', 'powershell', 'fish', 'tclsh', 'awk', 'gawk']);
/** Programs that run their remaining arguments as a command; the value is how many option words take an argument. */
export const WRAPPERS: Record<string, { valued: RegExp; skipFirst?: RegExp }> = {
  env: { valued: /^-(u|C|S|-unset|-chdir|-split-string)$/ },
  exec: { valued: /^-a$/ },
  command: { valued: /^$/ },
  builtin: { valued: /^$/ },
  nohup: { valued: /^$/ },
  nice: { valued: /^-n$/ },
  time: { valued: /^-(f|o)$/ },
  timeout: { valued: /^-(s|k|-signal|-kill-after)$/, skipFirst: /^[\d.]+[smhd]?$/ },
  sudo: { valued: /^-(u|g|C|D|h|p|r|t|U)$/ },
  doas: { valued: /^-(u|C)$/ },
  stdbuf: { valued: /^-(i|o|e)$/ },
  setsid: { valued: /^$/ },
  ionice: { valued: /^-(c|n|p)$/ },
  chrt: { valued: /^$/ },
  caffeinate: { valued: /^-(t|w)$/ },
  xargs: { valued: /^-(a|d|E|I|L|n|P|s)$/ },
  flock: { valued: /^-(w|E)$/, skipFirst: /./ },
};
/** Builtins and programs that run nothing from the repository (their file arguments are data). */
export const INERT = new Set(['echo', 'printf', 'cat', 'true', 'false', 'exit', 'return', 'test', '[', '[[', 'read', 'cd', 'pushd', 'popd', 'export', 'local', 'declare', 'readonly', 'unset', 'shift', 'set', 'shopt', 'trap', 'wait', 'jq', 'grep', 'sed', 'head', 'tail', 'wc', 'sort', 'tr', 'cut', 'printenv', 'date', 'sleep', 'mkdir', 'touch', 'rm', 'cp', 'mv', 'ls', 'git', 'dirname', 'basename', 'realpath', 'pwd']);


/**
 * The package or image spec a runner starts when it is not pinned (`pkg`, `pkg@latest`, `pkg@^1`,
 * `image`, `image:latest`, `image:1.2` (tags move); pinned are `pkg@1.2.3`, `pkg==1.2.3` and
 * `image@sha256:…`), else null. Unknown words are treated as moving.
 */
export function movingSpec(program: string, words: readonly ArgWord[]): string | null {
  const container = program === 'docker' || program === 'podman';
  const valued = container ? /^(-e|--env|-v|--volume|--name|-p|--publish|-w|--workdir|--entrypoint|--network|--net|-u|--user|--mount|--env-file|-l|--label|--platform|--pull|-h|--hostname|--add-host|--cpus|-m|--memory)$/ : /^(-p|--package|--from|--with|--python|-c|--call|--spec|--node-options)$/;
  let spec: string | null = null;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (!w.ok) return w.raw;
    if (w.value.startsWith('-')) {
      if (valued.test(w.value)) {
        const v = words[i + 1];
        if (!container && /^(-p|--package|--from)$/.test(w.value) && v) return v.ok && pinnedPackage(v.value) ? null : v.raw;
        i++;
      }
      continue;
    }
    spec = w.value;
    break;
  }
  if (spec === null) return null;
  if (container) return /@sha256:[0-9a-f]{64}$/.test(spec) ? null : spec;
  return pinnedPackage(spec) ? null : spec;
}

function pinnedPackage(spec: string): boolean {
  if (/==\d[\w.+-]*$/.test(spec)) return true;
  const at = spec.lastIndexOf('@');
  if (at <= 0) return false;
  return /^\d+\.\d+\.\d+([-+][\w.-]+)?$/.test(spec.slice(at + 1));
}

/** True when inline code loads other code (so covering its text is not enough). */
export function codeLoads(code: string, kind: FileKind): boolean {
  if (kind === 'node') return /\b(require|import|eval|Function|child_process|spawn|exec|execSync|readFile|readFileSync|process\.binding|dlopen|vm|Worker|fetch)\b/.test(code);
  if (kind === 'python') return /\b(import|__import__|exec|eval|compile|open|runpy|subprocess|system|popen|execfile|importlib)\b/.test(code);
  return /\b(require|load|import|include|use|do|source|eval|exec|system|open|dofile|loadfile|Invoke-Expression|iex|\.\s)/.test(code) || /`/.test(code);
}

/** True when a script finds files by its own location (so its folder is covered and mirrored). */
export function selfLocating(text: string, kind: FileKind): boolean {
  if (kind === 'shell') return /\$\{?0\b|BASH_SOURCE|\$\{?BASH_ARGV0/.test(text);
  if (kind === 'node') return /__dirname|__filename|import\.meta\.(url|dirname|filename)/.test(text);
  if (kind === 'python') return /__file__|sys\.argv\[0\]/.test(text);
  return false;
}

const SYSTEM_PREFIXES = ['/bin/', '/sbin/', '/usr/', '/lib/', '/lib32/', '/lib64/', '/etc/', '/System/', '/opt/homebrew/', '/nix/store/', '/dev/'];

/** Operating-system programs are not hashed: they change with OS updates, not with the repository. */
export function isSystemPath(abs: string): boolean {
  return SYSTEM_PREFIXES.some((p) => abs.startsWith(p));
}
