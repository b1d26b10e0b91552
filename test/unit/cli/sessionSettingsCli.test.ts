import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';

describe('atrium session settings (real child process)', { timeout: 120_000 }, () => {
  it('shows the idle-shutdown default, changes it durably, and refuses a value that is not whole minutes', () => {
    const dataDir = path.join(tempDir('atrium-settings-'), 'data');
    const cli = (...args: string[]) => runCli(['session', 'settings', ...args, '--data-dir', dataDir]);

    expect(cli('--json').json).toEqual({ idleMinutes: 10 });
    expect(cli().stdout.trim()).toBe('Idle shutdown: after 10 min');

    expect(cli('--idle-minutes', '30', '--json').json).toEqual({ idleMinutes: 30 });
    expect(cli('--json').json).toEqual({ idleMinutes: 30 }); // stored in the data dir, read by the next process
    expect(cli('--idle-minutes', '0').stdout.trim()).toBe('Idle shutdown: never');

    const bad = cli('--idle-minutes', '2.5');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--idle-minutes must be a whole number of minutes from 0 to 1440, not "2.5"');
    expect(cli('--json').json).toEqual({ idleMinutes: 0 });
  });
});
