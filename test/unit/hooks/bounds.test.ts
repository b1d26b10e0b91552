import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_HANDLERS_PER_FILE } from '../../../src/main/core/hooks/listing';
import { MAX_CONCURRENT_HANDLERS } from '../../../src/main/core/hooks/run';
import { hookWorld } from './helpers';

describe('bounded hook runs and listings', () => {
  it(`matching handlers run at most ${MAX_CONCURRENT_HANDLERS} at once, and results come back in declaration order`, async () => {
    const w = hookWorld();
    fs.mkdirSync(path.join(w.project, 'running'));
    fs.mkdirSync(path.join(w.project, 'seen'));
    // each handler marks itself running, records the most handlers it saw running at once (waiting
    // briefly for the pool to fill), and unmarks itself before it exits
    const handler = (i: number) => ({
      type: 'command',
      timeout: 60,
      command: `touch running/${i}; max=0; for k in $(seq 1 150); do n=$(ls running | wc -l); [ "$n" -gt "$max" ] && max=$n; [ "$n" -ge ${MAX_CONCURRENT_HANDLERS} ] && break; sleep 0.02; done; echo $max > seen/${i}; rm running/${i}; echo handler-${i}`,
    });
    const count = 20;
    w.write({ '.claude/settings.json': { hooks: { Stop: [{ hooks: Array.from({ length: count }, (_, i) => handler(i)) }] } } });
    const { hooks } = await w.list();
    await w.engine.hooks.approve({ path: w.project }, hooks.map((h) => ({ id: h.id, digest: h.digest })));
    const out = await w.engine.hooks.run('Stop', {}, { path: w.project });
    expect(out.results.map((r) => r.stdout.trim())).toEqual(Array.from({ length: count }, (_, i) => `handler-${i}`));
    const seen = fs.readdirSync(path.join(w.project, 'seen')).map((f) => Number(fs.readFileSync(path.join(w.project, 'seen', f), 'utf8')));
    expect(seen).toHaveLength(count);
    // they did run in parallel (8 at once were seen) and never more than the bound
    expect(Math.max(...seen)).toBe(MAX_CONCURRENT_HANDLERS);
  }, 120_000);

  it(`a file with 100,000 handlers: the first ${MAX_HANDLERS_PER_FILE} are listed and can run, with a warning naming the file and the line where the rest start`, async () => {
    const w = hookWorld();
    const lines = ['{ "hooks": { "Stop": [ { "hooks": ['];
    // compact enough to stay below the 4 MiB source limit
    for (let i = 0; i < 100_000; i++) lines.push(`{"type":"command","command":"${i < 1100 ? `echo ${i}` : 'true'}"}${i < 99_999 ? ',' : ''}`);
    lines.push('] } ] } }');
    w.write({ '.claude/settings.json': lines.join('\n') });
    const listing = await w.list();
    const fromFile = listing.hooks.filter((h) => h.source.file === '.claude/settings.json');
    expect(fromFile).toHaveLength(MAX_HANDLERS_PER_FILE);
    expect(fromFile.at(-1)!.command).toBe(`echo ${MAX_HANDLERS_PER_FILE - 1}`);
    expect(listing.warnings).toContainEqual({
      path: '.claude/settings.json',
      line: MAX_HANDLERS_PER_FILE + 2,
      message: `defines 100,000 hook handlers: Atrium lists, approves and runs only the first 1,000 (in file order); the others from this line on never run`,
      fix: 'Remove the handlers you do not need (no real configuration has this many), or split them across plugins.',
    });
    const out = await w.engine.hooks.run('Stop', {}, { path: w.project });
    expect(out.results).toHaveLength(MAX_HANDLERS_PER_FILE);
    expect(out.results.every((r) => r.skipped === 'unapproved')).toBe(true);
    expect(fs.statSync(path.join(w.project, '.claude/settings.json')).size).toBeLessThan(4 * 1024 * 1024);
  }, 120_000);
});
