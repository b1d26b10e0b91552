import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { AtriumError } from '../../../shared/errors';
import { confinePath } from './confine';
import { killProcessTree } from '../process/processTree';
import { ByteRing } from './ringBuffer';

/** Output kept per terminal when the agent gives no `outputByteLimit` (bytes). */
export const DEFAULT_TERMINAL_OUTPUT_BYTES = 1024 * 1024;

/** Exit status of a terminal command (ACP `TerminalExitStatus`). */
export interface TerminalExit {
  exitCode: number | null;
  signal: string | null;
}

/** Output snapshot of a terminal (ACP `terminal/output`). */
export interface TerminalOutput {
  output: string;
  truncated: boolean;
  exitStatus: TerminalExit | null;
}

/** ACP `terminal/create` params Atrium uses. */
export interface TerminalCreate {
  command: string;
  args?: string[];
  env?: Array<{ name: string; value: string }>;
  cwd?: string | null;
  outputByteLimit?: number | null;
}

interface Terminal {
  id: string;
  child: ChildProcess;
  ring: ByteRing;
  exit: TerminalExit | null;
  exited: Promise<TerminalExit>;
}

/**
 * The ACP `terminal/*` methods for one session. Commands run in their own process group with cwd
 * confined to the session roots (symlinks resolved), stdout and stderr interleaved into a ring
 * buffer of `outputByteLimit` bytes (truncated from the beginning, at a character boundary, as the
 * spec asks). `kill` and `release` kill the whole process tree. A command given without `args` that
 * contains spaces or shell syntax runs through the platform shell (`/bin/sh -c`), as agents often
 * send a whole command line; otherwise there is no shell.
 */
export class TerminalManager {
  private readonly terminals = new Map<string, Terminal>();

  /**
   * @param roots the session's canonical roots (cwd first)
   * @param env base environment of commands (the agent's environment)
   * @param onExit called once per terminal when its command ends, with the final output
   */
  constructor(
    private readonly roots: () => string[],
    private readonly env: () => Record<string, string>,
    private readonly onExit: (terminalId: string, output: TerminalOutput) => void,
  ) {}

  /**
   * Starts a command; returns its terminal id.
   * @throws AtriumError PATH_OUTSIDE_SESSION | PATH_NOT_ABSOLUTE for a cwd outside the session
   */
  create(params: TerminalCreate): string {
    const roots = this.roots();
    const cwd = params.cwd ? confinePath(params.cwd, roots, 'run a terminal in') : roots[0];
    const args = params.args ?? [];
    const useShell = args.length === 0 && /[\s|&;<>()$`*?~"'\\]/.test(params.command.trim());
    const [command, argv] = useShell
      ? process.platform === 'win32'
        ? ['cmd.exe', ['/d', '/s', '/c', params.command]]
        : ['/bin/sh', ['-c', params.command]]
      : [params.command, args];
    const env = { ...this.env() };
    for (const v of params.env ?? []) env[v.name] = v.value;
    const limit = params.outputByteLimit && params.outputByteLimit > 0 ? params.outputByteLimit : DEFAULT_TERMINAL_OUTPUT_BYTES;
    const id = `term-${crypto.randomUUID()}`;
    const ring = new ByteRing(limit);
    const child = spawn(command, argv as string[], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32', windowsHide: true });
    const term: Terminal = { id, child, ring, exit: null, exited: Promise.resolve({ exitCode: null, signal: null }) };
    term.exited = new Promise<TerminalExit>((resolve) => {
      let settled = false;
      const finish = (exit: TerminalExit) => {
        if (settled) return;
        settled = true;
        term.exit = exit;
        resolve(exit);
        try {
          this.onExit(id, this.snapshot(term));
        } catch {
          // an observer failing must not break the terminal
        }
      };
      child.on('error', (error) => {
        ring.push(`${error.message}\n`);
        finish({ exitCode: 127, signal: null });
      });
      child.on('close', (code, signal) => finish({ exitCode: code, signal }));
    });
    child.stdout?.on('data', (d: Buffer) => ring.push(d));
    child.stderr?.on('data', (d: Buffer) => ring.push(d));
    this.terminals.set(id, term);
    return id;
  }

  /** @throws AtriumError NOT_FOUND for an unknown or released terminal */
  output(id: string): TerminalOutput {
    return this.snapshot(this.get(id));
  }

  /** Resolves when the command ends. @throws AtriumError NOT_FOUND */
  waitForExit(id: string): Promise<TerminalExit> {
    return this.get(id).exited;
  }

  /** Kills the command's process tree; the terminal stays readable. @throws AtriumError NOT_FOUND */
  kill(id: string): void {
    const term = this.get(id);
    if (!term.exit) killProcessTree(term.child.pid, 'SIGKILL');
  }

  /** Kills (if running) and forgets the terminal. Unknown ids are ignored (release is idempotent). */
  release(id: string): void {
    const term = this.terminals.get(id);
    if (!term) return;
    if (!term.exit) killProcessTree(term.child.pid, 'SIGKILL');
    this.terminals.delete(id);
  }

  /** True when the id names a terminal of this session. */
  has(id: string): boolean {
    return this.terminals.has(id);
  }

  /** Kills every command and waits until all have exited (session close, quit). */
  async releaseAll(): Promise<void> {
    const all = [...this.terminals.values()];
    for (const t of all) if (!t.exit) killProcessTree(t.child.pid, 'SIGKILL');
    await Promise.all(all.map((t) => t.exited));
    this.terminals.clear();
  }

  private get(id: string): Terminal {
    const term = this.terminals.get(id);
    if (!term) throw new AtriumError('NOT_FOUND', `No terminal "${id}" in this session (it may have been released).`);
    return term;
  }

  private snapshot(term: Terminal): TerminalOutput {
    return { output: term.ring.text(), truncated: term.ring.truncated, exitStatus: term.exit };
  }
}
