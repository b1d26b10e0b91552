import fs from 'node:fs';
import path from 'node:path';
import { isNodeRuntime, type NodeRuntimeOptions } from '../process/nodeRuntime';
import type { AgentPreset } from './presets';

/** How a user-defined command was recognised as a preset's agent (shown with its isolation). */
export interface RecognisedAgent {
  preset: AgentPreset;
  /** A plain sentence, e.g. `the command runs @agentclientprotocol/claude-agent-acp (node …/dist/index.js)`. */
  how: string;
}

/** Node options that take the next argument as their value (so it is not the entry script). Node 20–24. */
const NODE_VALUE_OPTIONS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--env-file', '--title', '--input-type', '--inspect-port', '--stack-size', '--max-old-space-size']);
/** Node options after which no script runs (inline code, a REPL-free evaluation). */
const NODE_EVAL_OPTIONS = new Set(['-e', '--eval', '-p', '--print', '-i', '--interactive']);
/** Package runners that fetch and run a package's bin: `npx`, `bunx`, `pnpm dlx`, `npm exec`, `yarn dlx`. */
const RUNNERS: ReadonlyArray<{ command: string; sub?: string }> = [{ command: 'npx' }, { command: 'bunx' }, { command: 'pnpm', sub: 'dlx' }, { command: 'npm', sub: 'exec' }, { command: 'yarn', sub: 'dlx' }];
/** Package runner options that take the next argument as their value. */
const RUNNER_VALUE_OPTIONS = new Set(['-p', '--package', '-c', '--call', '--registry', '--cache', '--userconfig', '-w', '--workspace']);

/**
 * Bin names only one known package uses, recognised wherever the file lives. `codex-acp` is not
 * among them: Zed's Rust adapter and many forks ship a `codex-acp` of their own with another
 * configuration model, so a file of that name counts only inside the npm package.
 */
const UNIQUE_BIN_NAMES = new Set(['claude-agent-acp']);
/**
 * Native builds a package publishes as release assets, by file name (extension stripped): codex-acp
 * 2.6.0's `bundle:*` scripts compile the same source with Bun to `codex-acp-<x64|arm64>-<linux|darwin|windows>`.
 */
const RELEASE_BINARIES: Record<string, RegExp> = { 'codex-acp': /^codex-acp-(x64|arm64)-(linux|darwin|windows)$/ };

const baseName = (p: string) => path.basename(p).replace(/\.(exe|cmd|bat|ps1|js|mjs|cjs)$/i, '').toLowerCase();

/** The npm package name of a spec (`@scope/name@1.2.3` → `@scope/name`, `name@latest` → `name`). */
function packageOfSpec(spec: string): string {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  return at > 0 ? spec.slice(0, at) : spec;
}

/** Resolves a command name against PATH's absolute entries (a path is returned as given). */
function onPath(command: string, envPath: string | undefined): string | null {
  if (command.includes('/') || command.includes('\\')) return command;
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, command);
    try {
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

const realOrSelf = (p: string) => {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};

/**
 * Packages that carry a preset's native binary for one platform (npm optional dependencies of the
 * preset's package): opencode-ai 1.18.33 installs `opencode-<os>-<arch>[-baseline][-musl]/bin/opencode`.
 */
const PLATFORM_PACKAGES: Record<string, RegExp> = { 'opencode-ai': /\/node_modules\/opencode-(linux|darwin|windows)-[a-z0-9-]+\/bin\/opencode(\.exe)?$/ };

/** The preset whose npm package folder (`…/node_modules/<package>/…`, or a platform package of it) contains `file`, after symlinks. */
function presetOfFile(file: string, presets: readonly AgentPreset[]): AgentPreset | null {
  const normal = realOrSelf(file).split(path.sep).join('/');
  return presets.find((p) => normal.includes(`/node_modules/${p.package}/`) || normal.includes(`/${p.package}/dist/`) || PLATFORM_PACKAGES[p.package]?.test(normal)) ?? null;
}

/**
 * Recognises a built-in preset's agent behind a user-defined command line, so it gets that
 * preset's isolation (for the Claude ACP adapter: `settingSources: []`, the hook bridge, rules in
 * the system prompt). Recognised forms, for each preset's npm package and bin:
 * - the bin itself, found on `envPath` or given as a path, when its file (after symlinks) lies in the
 *   package's folder; `claude-agent-acp` also by its name alone (no other package uses it), and
 *   codex-acp's native release binaries by their file names (`codex-acp-x64-linux`, …);
 * - a file (after symlinks) in a platform package of the preset's package (OpenCode's native
 *   `opencode-<os>-<arch>/bin/opencode`);
 * - `node [node options] <file>` where the file (after symlinks) lies in the package's folder
 *   (`…/node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js`); the command is named
 *   `node` or is the Node Atrium runs Node programs with (`nodeRuntime` under the `node` options);
 * - a package runner of the package: `npx [-y] <package>[@version]`, `npx --package <package> <bin>`,
 *   `bunx`, `pnpm dlx`, `npm exec`, `yarn dlx`.
 * Anything else (e.g. `node -e …`, a wrapper script) is not recognised: null.
 */
export function recogniseAgentCommand(
  command: string,
  args: readonly string[],
  presets: readonly AgentPreset[],
  envPath: string | undefined = process.env.PATH,
  node: NodeRuntimeOptions = {},
): RecognisedAgent | null {
  const name = baseName(command);
  // a package runner
  const runner = RUNNERS.find((r) => r.command === name);
  if (runner) {
    let rest = [...args];
    if (runner.sub) {
      if (rest[0] !== runner.sub) return null;
      rest = rest.slice(1);
    }
    let packaged: string | null = null;
    let positional: string | null = null;
    for (let i = 0; i < rest.length; i++) {
      const a = rest[i];
      if (a === '--') {
        positional = rest[i + 1] ?? null;
        break;
      }
      const eq = /^(--package|--call)=(.*)$/.exec(a);
      if (eq) {
        if (eq[1] === '--package') packaged = eq[2];
        continue;
      }
      if (RUNNER_VALUE_OPTIONS.has(a)) {
        if (a === '-p' || a === '--package') packaged = rest[i + 1] ?? null;
        if (a === '-c' || a === '--call') return null; // a shell line: not one program
        i++;
        continue;
      }
      if (a.startsWith('-')) continue;
      positional = a;
      break;
    }
    const spec = packaged ?? positional;
    if (!spec) return null;
    const pkg = packageOfSpec(spec);
    const preset = presets.find((p) => p.package === pkg && (!packaged || !positional || positional === p.bin));
    return preset ? { preset, how: `the command runs ${preset.package} through ${name}${runner.sub ? ` ${runner.sub}` : ''}` } : null;
  }
  // node <entry script>
  if (name === 'node' || isNodeRuntime(command, { ...node, envPath })) {
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (NODE_EVAL_OPTIONS.has(a)) return null;
      if (NODE_VALUE_OPTIONS.has(a)) {
        i++;
        continue;
      }
      if (a === '--') {
        const entry = args[i + 1];
        const preset = entry ? presetOfFile(entry, presets) : null;
        return preset ? { preset, how: `the command runs ${preset.package} (node ${entry})` } : null;
      }
      if (a.startsWith('-')) continue;
      const preset = presetOfFile(a, presets);
      return preset ? { preset, how: `the command runs ${preset.package} (node ${a})` } : null;
    }
    return null;
  }
  // the bin itself
  const file = onPath(command, envPath);
  const byFile = file ? presetOfFile(file, presets) : null;
  if (byFile) return { preset: byFile, how: `the command is ${byFile.package}'s ${byFile.bin}` };
  const byName = presets.find((p) => UNIQUE_BIN_NAMES.has(p.bin) && p.bin === name);
  if (byName) return { preset: byName, how: `the command is ${byName.package}'s ${byName.bin}` };
  const release = presets.find((p) => RELEASE_BINARIES[p.bin]?.test(name));
  return release ? { preset: release, how: `the command is ${release.package}'s native release binary (${path.basename(command)})` } : null;
}
