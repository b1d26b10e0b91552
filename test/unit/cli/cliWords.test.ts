import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';

/** What the CLI says agrees with what happens (real child processes on a temp data directory). */

describe('atrium agents list says what launching would do', () => {
  it('a preset neither installed nor on PATH is "not installed" with the install command; one on PATH is installed (path)', () => {
    const dataDir = tempDir('atrium-cli-');
    const bin = tempDir('atrium-bin-');
    const qwen = path.join(bin, 'qwen');
    fs.writeFileSync(qwen, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const env = { PATH: bin };
    expect(runCli(['agents', 'define', 'mine', 'no-such-agent-binary', '--data-dir', dataDir], env).status).toBe(0);

    const listed = runCli(['agents', 'list', '--data-dir', dataDir], env);
    expect(listed.status).toBe(0);
    const line = (id: string) => listed.stdout.split('\n').find((l) => l.startsWith(`${id} `)) ?? '';
    expect(line('codex')).toContain('not installed (atrium agents install codex)');
    expect(line('qwen')).toContain(`installed (path)`);
    expect(line('mine')).toContain('not found on PATH');
    expect(listed.stdout).not.toMatch(/\bavailable\b/);

    // the launch agrees: the preset that is "not installed" does not start
    const started = runCli(['session', 'new', tempDir(), '--agent', 'codex', '--data-dir', dataDir], env);
    expect(started.status).toBe(1);
    expect(started.stderr).toContain('is not installed. Install it with: atrium agents install codex');

    // --json keeps the wire states
    const json = runCli(['agents', 'list', '--data-dir', dataDir, '--json'], env).json as { agents: Array<{ id: string; install: { state: string } }> };
    expect(json.agents.find((a) => a.id === 'codex')?.install.state).toBe('available');
  });
});
