import { spawnSync } from 'node:child_process';

/**
 * Sends `signal` to a whole process tree that was spawned `detached` (its own process group, so
 * `-pid` addresses the child and everything it started that did not leave the group). On Windows,
 * `taskkill /T /F` kills the tree. Never throws: a tree that is already gone is fine.
 */
export function killProcessTree(pid: number | undefined, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (!pid) return;
  if (process.platform === 'win32') {
    try {
      spawnSync('taskkill', ['/PID', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    } catch {
      // already gone
    }
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}
