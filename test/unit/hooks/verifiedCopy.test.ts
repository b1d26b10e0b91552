import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMatching } from '../../../src/main/core/hooks/run';
import { hookWorld, listingWithFirstApproved, settingsWith } from './helpers';

describe('what runs is the bytes that were checked', () => {
  it('a writer swapping the script in a tight loop never gets its bytes run: every run executed the approved copy or was skipped as modified', async () => {
    const w = hookWorld();
    const good = '#!/usr/bin/env bash\necho APPROVED\n';
    const evil = '#!/usr/bin/env bash\necho ATTACKER\n';
    w.write({ '.claude/settings.json': settingsWith('Stop', { type: 'command', command: 'bash .claude/hooks/s.sh' }), '.claude/hooks/s.sh': good });
    const { built } = await listingWithFirstApproved(w);
    expect(built.hooks[0].hook.state).toBe('approved');
    const target = path.join(w.project, '.claude/hooks/s.sh');
    // a real process racing: atomic renames and in-place rewrites, alternating good and evil bytes
    const writer = spawn(process.execPath, ['-e', `
      const fs = require('fs'); const t = ${JSON.stringify(target)};
      const g = ${JSON.stringify(good)}, e = ${JSON.stringify(evil)};
      for (let i = 0; ; i++) { const b = i % 2 ? e : g; if (i % 4 < 2) { fs.writeFileSync(t + '.tmp', b); fs.renameSync(t + '.tmp', t); } else fs.writeFileSync(t, b); }
    `], { stdio: 'ignore' });
    const outputs: string[] = [];
    try {
      for (let i = 0; i < 60; i++) {
        const r = (await runMatching(built.hooks, 'Stop', {}, { path: w.project, homeDir: w.home, allowedHosts: [] })).outcome.results[0];
        outputs.push(r.skipped ? `skipped:${r.skipped}` : r.stdout.trim());
      }
    } finally {
      writer.kill('SIGKILL');
    }
    expect(outputs.filter((o) => o.includes('ATTACKER'))).toEqual([]);
    expect(outputs.every((o) => o === 'APPROVED' || o === 'skipped:modified')).toBe(true);
    expect(outputs.filter((o) => o === 'APPROVED').length).toBeGreaterThan(0);
    // the private copies are gone after each run
    expect(fs.readdirSync(path.dirname(target)).filter((n) => n.startsWith('atrium-hook-'))).toEqual([]);
    await w.engine.close();
  }, 120_000);
});
