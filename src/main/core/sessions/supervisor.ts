import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { redactSecrets } from '../credentials/redact';
import { ByteRing } from './ringBuffer';
import { killProcessTree } from '../process/processTree';

/** What to run: no shell, ever. `env` is the complete environment of the child. */
export interface LaunchSpec {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Secrets (provider keys) to redact from the stderr Atrium keeps and shows; none when absent. */
  redact?: string[];
}

/** How an agent process ended. `expected` is true when Atrium stopped it (close, quit, idle). */
export interface ExitInfo {
  code: number | null;
  signal: string | null;
  /** ISO 8601. */
  at: string;
  expected: boolean;
  /** Set when the process could not be started at all (e.g. ENOENT). */
  spawnError: string | null;
}

/** Bytes of stderr kept per agent process (the diagnostics tail). */
export const STDERR_RING_BYTES = 64 * 1024;

const live = new Set<AgentProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Last resort when the host process exits without closing the engine: no agent outlives Atrium.
  process.on('exit', () => {
    for (const p of live) killProcessTree(p.pid, 'SIGKILL');
  });
}

/**
 * Owns one agent child process (VibeAround's supervisor with `RestartPolicy::Never`): spawned
 * without a shell in its own process group (`detached`), stdin/stdout carry ACP, stderr goes to a
 * bounded ring buffer, `stop()` kills the whole tree (SIGTERM, then SIGKILL after a grace period).
 * It never restarts anything: an exit is reported through `exited` and the session decides.
 */
export class AgentProcess {
  /** The stderr tail, with `spec.redact` secrets replaced whenever it is read. */
  readonly stderr: ByteRing;
  readonly exited: Promise<ExitInfo>;
  private expected = false;
  private done = false;

  private constructor(readonly child: ChildProcessWithoutNullStreams, readonly spec: LaunchSpec) {
    this.stderr = spec.redact?.length ? new RedactingRing(STDERR_RING_BYTES, spec.redact) : new ByteRing(STDERR_RING_BYTES);
    this.exited = new Promise<ExitInfo>((resolve) => {
      const finish = (code: number | null, signal: string | null, spawnError: string | null) => {
        if (this.done) return;
        this.done = true;
        live.delete(this);
        resolve({ code, signal, at: new Date().toISOString(), expected: this.expected, spawnError });
      };
      child.on('error', (error) => {
        // spawn failures (ENOENT, EACCES) arrive here without an 'exit'
        if (child.pid === undefined) finish(null, null, error.message);
      });
      child.on('exit', (code, signal) => finish(code, signal, null));
    });
    child.stderr.on('data', (d: Buffer) => this.stderr.push(d));
    // A broken pipe to a dying agent must not become an uncaught exception in the engine.
    child.stdin.on('error', () => {});
    child.stdout.on('error', () => {});
    child.stderr.on('error', () => {});
  }

  /** Spawns the process. Never throws for a missing command: `exited` then resolves with `spawnError`. */
  static spawn(spec: LaunchSpec): AgentProcess {
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      shell: false,
      windowsHide: true,
    });
    const proc = new AgentProcess(child, spec);
    if (child.pid !== undefined) {
      installExitHook();
      live.add(proc);
    }
    return proc;
  }

  /** The child's process id (also its process group id); undefined when it never started. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** True until the process has exited. */
  get running(): boolean {
    return !this.done && this.child.pid !== undefined;
  }

  /**
   * Stops the process tree: SIGTERM to the group, SIGKILL after `graceMs`. Marks the exit as
   * expected unless `expected` is false (the agent broke the connection first) and no earlier
   * stop was expected. Resolves with the
   * exit info (immediately if it already ended).
   */
  async stop(graceMs = 2000, expected = true): Promise<ExitInfo> {
    if (!this.done) {
      // a stop Atrium asked for stays expected: the connection closing because of it calls stop(…, false) too
      this.expected = this.expected || expected;
      try {
        this.child.stdin.end();
      } catch {
        // already closed
      }
      killProcessTree(this.pid, 'SIGTERM');
      const timer = setTimeout(() => killProcessTree(this.pid, 'SIGKILL'), graceMs);
      timer.unref();
      const info = await this.exited;
      clearTimeout(timer);
      // children that ignored SIGTERM but stayed in the group
      killProcessTree(this.pid, 'SIGKILL');
      return info;
    }
    return this.exited;
  }
}

/** A stderr ring whose text never shows the given secrets (a key may span chunks, so it is redacted on read). */
class RedactingRing extends ByteRing {
  constructor(capacity: number, private readonly secrets: string[]) {
    super(capacity);
  }

  override text(): string {
    return redactSecrets(super.text(), this.secrets);
  }
}
