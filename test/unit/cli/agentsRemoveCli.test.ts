import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';

describe('atrium agents remove (real child process)', { timeout: 120_000 }, () => {
  it('removes a user-defined agent; a preset or an unknown id removes nothing and exits 1 saying why', () => {
    const dataDir = path.join(tempDir('atrium-agents-remove-'), 'data');
    const cli = (...args: string[]) => runCli(['agents', ...args, '--data-dir', dataDir]);
    expect(cli('define', 'mine', process.execPath, 'agent.js').status).toBe(0);

    const preset = cli('remove', 'claude');
    expect(preset.status).toBe(1);
    expect(preset.stderr).toContain('"claude" is a built-in preset');
    expect(preset.stderr).toContain('presets cannot be removed');
    expect(preset.stdout).toBe('');
    const presetJson = cli('remove', 'claude', '--json');
    expect(presetJson.status).toBe(1);
    expect(presetJson.json).toMatchObject({ error: { code: 'AGENT_NOT_FOUND' } });

    const unknown = cli('remove', 'nosuch');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No user-defined agent "nosuch". Yours: mine.');

    const removed = cli('remove', 'mine');
    expect(removed.status).toBe(0);
    expect(removed.stdout).toContain('Removed agent mine');
    // removed once: a second remove is an error, not a silent success
    expect(cli('remove', 'mine').status).toBe(1);
    expect(cli('list', '--json').json).toMatchObject({ agents: expect.not.arrayContaining([expect.objectContaining({ id: 'mine' })]) });
  });
});
