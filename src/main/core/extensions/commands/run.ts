import { spawn } from 'node:child_process';
import type { ShellEmbed } from './embeds';

/** Timeout of one embed (ms) and captured output limit (bytes), as Claude Code/Blade (seed §11). */
export const EMBED_TIMEOUT_MS = 30_000;
export const EMBED_MAX_OUTPUT = 1024 * 1024;

/** The result of one embed. */
export interface EmbedRun {
  command: string;
  exitCode: number | null;
  output: string;
  timedOut: boolean;
  truncated: boolean;
}

/**
 * Runs shell embeds one after another in `cwd`. Each runs as exactly the text written in the
 * template, through the platform shell, with no arguments and no argument text anywhere (not in
 * the command, not in the environment: the environment is PATH/HOME/USER/SHELL/LANG/TERM plus
 * `CLAUDE_PROJECT_DIR`). Output = trimmed stdout, or `[Error executing 'cmd': …]`. Callers must have
 * checked trust and the user's confirmation (see `ExtensionsService.runCommandEmbeds`).
 */
export async function runEmbeds(embeds: readonly ShellEmbed[], cwd: string): Promise<EmbedRun[]> {
  const runs: EmbedRun[] = [];
  for (const e of embeds) runs.push(await runOne(e.command, cwd));
  return runs;
}

function runOne(command: string, cwd: string): Promise<EmbedRun> {
  const env: NodeJS.ProcessEnv = { CLAUDE_PROJECT_DIR: cwd };
  for (const k of ['PATH', 'HOME', 'USER', 'SHELL', 'LANG', 'TERM', 'SystemRoot', 'ComSpec', 'PATHEXT']) if (process.env[k] !== undefined) env[k] = process.env[k];
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let truncated = false;
    let timedOut = false;
    const child = spawn(command, { cwd, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    const kill = () => {
      try {
        if (child.pid && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, EMBED_TIMEOUT_MS);
    child.stdout!.on('data', (d: Buffer) => {
      if (stdout.length + d.length > EMBED_MAX_OUTPUT) {
        truncated = true;
        stdout += d.toString('utf8').slice(0, EMBED_MAX_OUTPUT - stdout.length);
        kill();
      } else stdout += d.toString('utf8');
    });
    child.stderr!.on('data', (d: Buffer) => {
      if (stderr.length < 4096) stderr += d.toString('utf8');
    });
    let settled = false;
    const done = (exitCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const failedRun = error !== null || timedOut || (exitCode !== 0 && !truncated);
      const reason = error ?? (timedOut ? `timed out after ${EMBED_TIMEOUT_MS / 1000} s` : `exit code ${exitCode}${stderr.trim() ? `: ${stderr.trim().split('\n')[0]}` : ''}`);
      resolve({ command, exitCode, output: failedRun ? `[Error executing '${command}': ${reason}]` : stdout.trim(), timedOut, truncated });
    };
    child.once('error', (err) => done(null, err.message));
    child.once('close', (code) => done(code, null));
  });
}
