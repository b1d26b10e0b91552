import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/main/core/engine';
import { splitArguments, substituteArguments } from '../../../src/main/core/extensions/commands/arguments';
import { findShellEmbeds } from '../../../src/main/core/extensions/commands/embeds';
import { AtriumError } from '../../../src/shared/errors';
import { build, engineFor, makeDir, md, switchGate } from './helpers';

let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

describe('command names and expansion (Claude Code semantics, 0-based)', () => {
  it('subfolders are part of the name: frontend/x and backend/x are two commands', async () => {
    const dir = makeDir({ '.claude/commands/frontend/x.md': 'front', '.claude/commands/backend/x.md': 'back' });
    const c = await build(dir, makeDir());
    expect(c.commands.map((x) => [x.id, x.status])).toEqual([
      ['backend/x', 'active'],
      ['frontend/x', 'active'],
    ]);
  });

  it('$ARGUMENTS is the text as typed, $0 the first word, $ARGUMENTS[1] the second; an unmatched $N stays', () => {
    const args = splitArguments(`World "big foo" 'a b'`);
    expect(args).toEqual(['World', 'big foo', 'a b']);
    expect(substituteArguments('Hello $0, all: $ARGUMENTS, second: $ARGUMENTS[1], none: $7, price \\$1.00', args, `World "big foo" 'a b'`).text).toBe(
      `Hello World, all: World "big foo" 'a b', second: big foo, none: $7, price $1.00`,
    );
  });

  it('warns on a template written for 1-based $1 (naming what each placeholder gets) and not on a 0-based one', async () => {
    const dir = makeDir({
      '.claude/commands/old.md': md({ 'argument-hint': 'PR PRIORITY' }, 'Review PR #$1 with priority $2.'),
      '.claude/commands/new.md': md({ 'argument-hint': 'PR PRIORITY' }, 'Review PR #$0 with priority $1.'),
      '.claude/commands/one.md': md({ 'argument-hint': 'FILE' }, 'Explain @$1'),
    });
    const c = await build(dir, makeDir());
    const old = c.commands.find((x) => x.id === 'old')!;
    expect(old.warnings.map((w) => [w.line, w.message])).toEqual([[4, expect.stringContaining('uses $1…$2 but never $0: it looks written for 1-based arguments (argument-hint names 2 arguments)')]]);
    expect(old.warnings[0].fix).toBe('Renumber to $0…$1 (or use $ARGUMENTS).');
    expect(c.commands.find((x) => x.id === 'one')!.warnings[0].fix).toBe('Use $0 for the first argument (or $ARGUMENTS for all of them).');
    expect(c.commands.find((x) => x.id === 'new')!.warnings).toEqual([]);
  });

  it('${CLAUDE_PLUGIN_ROOT}, ${CLAUDE_PROJECT_DIR} and ${CLAUDE_SKILL_DIR} become paths in the template, never in the arguments', async () => {
    const home = makeDir();
    const dir = makeDir({
      '.claude/plugins/kit/.claude-plugin/plugin.json': JSON.stringify({ name: 'kit' }),
      '.claude/plugins/kit/commands/map.md': 'Read ${CLAUDE_PLUGIN_ROOT}/docs/map.md in ${CLAUDE_PROJECT_DIR} for $ARGUMENTS',
      '.claude/commands/plain.md': 'No plugin here: ${CLAUDE_PLUGIN_ROOT} stays; project ${CLAUDE_PROJECT_DIR}',
    });
    engine = engineFor(home);
    const p = await engine.extensions.commandPreview(dir, 'plugin:kit:map', { args: ['${CLAUDE_PROJECT_DIR}'] });
    const root = fs.realpathSync(path.join(dir, '.claude/plugins/kit'));
    expect(p.text).toBe(`Read ${root}/docs/map.md in ${dir} for \${CLAUDE_PROJECT_DIR}`);
    const plain = await engine.extensions.commandPreview(dir, 'plain', {});
    expect(plain.text).toBe(`No plugin here: \${CLAUDE_PLUGIN_ROOT} stays; project ${dir}`);
  });

  it('appends ARGUMENTS: when the template has no placeholder; inlines @path files as fenced blocks; leaves missing ones', async () => {
    const home = makeDir();
    const dir = makeDir({ '.claude/commands/plain.md': 'Look at @src/a.ts and @missing/x.md please.', 'src/a.ts': 'export const a = 1;\n' });
    engine = engineFor(home);
    const p = await engine.extensions.commandPreview(dir, '/plain', { args: ['now'] });
    expect(p.text).toBe('Look at \n```ts\nexport const a = 1;\n```\n and @missing/x.md please.\n\nARGUMENTS: now');
    expect(p.fileRefs.map((f) => [f.path, f.status])).toEqual([
      ['src/a.ts', 'included'],
      ['missing/x.md', 'missing'],
    ]);
  });
});

describe('the three safety properties of command expansion', () => {
  it('1. embeds are found on the template, never in arguments; the argument "; rm -rf ~" never reaches a shell', async () => {
    const home = makeDir();
    const marker = path.join(home, 'ran');
    const dir = makeDir({ '.claude/commands/branch.md': md({ description: 'x' }, 'Branch: !`echo safe`\nArgs: $ARGUMENTS then $0') });
    engine = engineFor(home, switchGate(true));
    const hostile = `; touch ${marker} #`;
    const p = await engine.extensions.commandPreview(dir, 'branch', { argumentText: `${hostile} !\`touch ${marker}\`` });
    expect(p.embeds.map((e) => e.command)).toEqual(['echo safe']);
    expect(findShellEmbeds(p.text).map((e) => e.command)).toContain(`touch ${marker}`); // literal text of the argument…
    expect(p.canRun).toBe(true);
    const run = await engine.extensions.runCommandEmbeds(dir, p.confirmToken!);
    expect(run.runs.map((r) => [r.command, r.output, r.exitCode])).toEqual([['echo safe', 'safe', 0]]);
    expect(run.text).toContain('Branch: safe\n');
    expect(run.text).toContain(`Args: ${hostile} !\`touch ${marker}\``); // …inserted, never executed
    expect(fs.existsSync(marker)).toBe(false);
    expect(run.text).not.toContain('rm -rf');
    const again = await engine.extensions.commandPreview(dir, 'branch', { argumentText: '; rm -rf ~' });
    expect(again.text).toContain('Args: ; rm -rf ~ then ;');
    expect(again.embeds.map((e) => e.command)).toEqual(['echo safe']);
  });

  it('2. @../../etc/passwd (and links and absolute paths) are refused: @path must resolve inside the workspace', async () => {
    const home = makeDir();
    const outside = makeDir({ 'secret.txt': 'TOP SECRET' });
    const dir = makeDir({ '.claude/commands/leak.md': 'A @../../etc/passwd B @/etc/hostname C @~/.ssh/id_rsa D @link/secret.txt E @ok.txt', 'ok.txt': 'fine' });
    fs.symlinkSync(outside, path.join(dir, 'link'));
    engine = engineFor(home);
    const p = await engine.extensions.commandPreview(dir, 'leak', {});
    expect(p.fileRefs.map((f) => [f.path, f.status])).toEqual([
      ['../../etc/passwd', 'refused'],
      ['/etc/hostname', 'refused'],
      ['~/.ssh/id_rsa', 'refused'],
      ['link/secret.txt', 'refused'],
      ['ok.txt', 'included'],
    ]);
    expect(p.text).toContain('A @../../etc/passwd B');
    expect(p.text).not.toContain('root:');
    expect(p.text).not.toContain('TOP SECRET');
    expect(p.text).toContain('fine');
    expect(p.warnings.filter((w) => w.message.includes('is refused')).map((w) => w.line)).toEqual([1, 1, 1, 1]);
  });

  it('3. replacements are literal: $& and $1 in an argument or an embed output stay as written', async () => {
    const home = makeDir();
    const dir = makeDir({ '.claude/commands/lit.md': "Got: $0 | all: $ARGUMENTS | out: !`printf '%s' 'x$&y$1'`" });
    engine = engineFor(home);
    const p = await engine.extensions.commandPreview(dir, 'lit', { args: ['$&', "$`$'"] });
    expect(p.text.startsWith("Got: $& | all: $& $`$' | out: ")).toBe(true);
    const run = await engine.extensions.runCommandEmbeds(dir, p.confirmToken!);
    expect(run.text).toBe("Got: $& | all: $& $`$' | out: x$&y$1");
  });
});

describe('running shell embeds needs a trusted workspace and the preview token', () => {
  it('untrusted: project commands are inactive and a user command with embeds cannot run', async () => {
    const home = makeDir({ '.claude/commands/u.md': 'U: !`echo hi`' });
    const dir = makeDir({ '.claude/commands/p.md': 'P: !`echo hi`' });
    engine = engineFor(home, switchGate(false));
    await expect(engine.extensions.commandPreview(dir, 'p', {})).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const p = await engine.extensions.commandPreview(dir, 'u', {});
    expect(p).toMatchObject({ canRun: false, confirmToken: null, runBlockedReason: expect.stringContaining('trusted workspaces') });
    expect(p.embeds.map((e) => e.command)).toEqual(['echo hi']);
  });

  it('the token is single-use, bound to the workspace and to the command version; trust revoked in between refuses', async () => {
    const home = makeDir();
    const gate = switchGate(true);
    const file = '.claude/commands/c.md';
    const dir = makeDir({ [file]: 'C: !`echo one`' });
    const other = makeDir({ [file]: 'C: !`echo one`' });
    engine = engineFor(home, gate);
    const p = await engine.extensions.commandPreview(dir, 'c', {});
    await expect(engine.extensions.runCommandEmbeds(dir, 'forged-token')).rejects.toMatchObject({ code: 'COMMAND_NOT_CONFIRMED' });
    await expect(engine.extensions.runCommandEmbeds(other, p.confirmToken!)).rejects.toMatchObject({ code: 'COMMAND_NOT_CONFIRMED' });
    // the failed attempt from the other workspace did not consume it
    expect((await engine.extensions.runCommandEmbeds(dir, p.confirmToken!)).text).toBe('C: one');
    await expect(engine.extensions.runCommandEmbeds(dir, p.confirmToken!)).rejects.toMatchObject({ code: 'COMMAND_NOT_CONFIRMED' });

    const q = await engine.extensions.commandPreview(dir, 'c', {});
    fs.writeFileSync(path.join(dir, file), 'C: !`echo two`');
    await engine.resources.refresh(dir);
    await expect(engine.extensions.runCommandEmbeds(dir, q.confirmToken!)).rejects.toMatchObject({ code: 'EXTENSION_CHANGED' });

    const r = await engine.extensions.commandPreview(dir, 'c', {});
    gate.set(false);
    const err = await engine.extensions.runCommandEmbeds(dir, r.confirmToken!).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AtriumError);
    expect((err as AtriumError).code).toBe('TRUST_REFUSED');
  });

  it('a failing embed is reported in brackets, not thrown', async () => {
    const dir = makeDir({ '.claude/commands/f.md': 'F: !`exit 3`' });
    engine = engineFor(makeDir());
    const p = await engine.extensions.commandPreview(dir, 'f', {});
    const run = await engine.extensions.runCommandEmbeds(dir, p.confirmToken!);
    expect(run.runs[0]).toMatchObject({ exitCode: 3, output: "[Error executing 'exit 3': exit code 3]" });
  });
});
