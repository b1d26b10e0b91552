import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../../src/main/core/dispatcher';
import type { Engine } from '../../../src/main/core/engine';
import { sessionCommandsOf } from '../../../src/main/core/sessions/workspacePolicy/sessionCommands';
import { resolveFolder } from '../../../src/main/core/workspaces/paths';
import { agentText, items, notices, policyWorld, type PolicyWorld } from '../../support/policy';

/**
 * A session's "/" commands are the workspace's custom commands and user-invocable
 * skills FROM THE SESSION'S SNAPSHOT, expanded with the Extensions tab's safety rules (arguments
 * never reach a shell, literal replacement, `@path` inside the execution folder, shell embeds only
 * in a trusted workspace and only with a single-use confirmation token), and sent as a prompt whose
 * origin the transcript records. Real engine, real SQLite, the scripted ACP agent over stdio.
 */

let world: PolicyWorld | null = null;
afterEach(async () => {
  await world?.closeAll();
  world = null;
});

/** Sends a command through the contract (validated params and result) and waits for the turn. */
async function sendAndWait(engine: Engine, sessionId: string, params: { name: string; argumentText?: string; sendToken?: string }) {
  const d = createDispatcher(engine, { 'app.info': () => ({}) as never, 'app.pickFolder': () => ({}) as never });
  const sent = await d.call('sessions.sendCommand', { sessionId, ...params });
  await engine.sessions.waitForTurn(sessionId, sent.promptId);
  return sent;
}

const userMessages = (engine: Engine, id: string) => items(engine, id).flatMap((i) => (i.kind === 'user_message' ? [i.text] : []));

describe('workspace commands in sessions', () => {
  it('lists commands and user-invocable skills from the snapshot; expansion keeps the frozen template after the file changed; the transcript shows /name', async () => {
    world = policyWorld({});
    world.write({
      '.claude/commands/review.md': '---\ndescription: Review a change\nargument-hint: <path>\n---\nReview $0 carefully. All: $ARGUMENTS. Literal: $&.\n',
      '.claude/commands/frontend/x.md': 'Frontend x for $ARGUMENTS\n',
      '.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy the app\narguments: env region\n---\nDeploy to $env in $region ($ARGUMENTS).\n',
      '.claude/skills/internal/SKILL.md': '---\nname: internal\ndescription: Only the model invokes this\nuser-invocable: false\n---\nInternal.\n',
    });
    world.write({ '.claude/commands/hello.md': 'Hello from the user folder, $ARGUMENTS\n' }, world.home);
    const engine = world.open();
    world.trust(engine);
    const commands = sessionCommandsOf(engine);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });

    const listed = await commands.list(s.id);
    expect(listed).toMatchObject({ from: 'snapshot', trust: 'trusted', inactive: 0 });
    expect(listed.takenAt).not.toBeNull();
    expect(listed.commands.map((c) => `${c.kind}:${c.id}:${c.source}`).sort()).toEqual(['command:frontend/x:project', 'command:hello:user', 'command:review:project', 'skill:deploy:project']);
    expect(listed.commands.find((c) => c.id === 'review')).toMatchObject({ invoke: 'review', argumentHint: '<path>', description: 'Review a change', shellEmbeds: [] });
    expect(listed.commands.find((c) => c.id === 'deploy')).toMatchObject({ arguments: ['env', 'region'] });

    // the file changes on disk after the session started: the workspace sees the new text, the session keeps its snapshot
    fs.writeFileSync(path.join(world.ws, '.claude/commands/review.md'), 'CHANGED on disk: $ARGUMENTS\n');
    await engine.resources.refresh(world.ws);
    expect((await engine.extensions.commandPreview(world.ws, 'review', { argumentText: 'a' })).text).toBe('CHANGED on disk: a\n');
    const preview = await commands.preview(s.id, { name: '/review', argumentText: 'src/app.ts  "two words"' });
    expect(preview).toMatchObject({ kind: 'command', from: 'snapshot', id: 'review', embeds: [], canRun: false, confirmToken: null });
    expect(preview.text).toBe('Review src/app.ts carefully. All: src/app.ts  "two words". Literal: $&.\n');
    expect((await commands.list(s.id)).commands.map((c) => c.id)).toContain('review');

    // sent through the contract: the expansion of the frozen template is the prompt; "; rm -rf ~" stays literal text
    const sent = await sendAndWait(engine, s.id, { name: 'review', argumentText: '; rm -rf ~' });
    expect(sent).toMatchObject({ id: 'review', kind: 'command' });
    expect(sent.text).toBe('Review ; carefully. All: ; rm -rf ~. Literal: $&.\n');
    expect(userMessages(engine, s.id)).toEqual([sent.text]);
    expect(agentText(engine, s.id)).toContain('Review ; carefully. All: ; rm -rf ~. Literal: $&.');
    expect(agentText(engine, s.id)).not.toContain('CHANGED');
    const notice = notices(engine, s.id, 'command');
    expect(notice).toHaveLength(1);
    expect(notice[0].title).toContain('/review ; rm -rf ~');
    expect(notice[0].title).toContain('.claude/commands/review.md');
    expect(notice[0].detail).toContain("Expanded from the session's snapshot");
    // the notice comes right before the prompt it explains
    const kinds = items(engine, s.id).map((i) => (i.kind === 'notice' ? `notice:${i.code}` : i.kind));
    expect(kinds[kinds.indexOf('user_message') - 1]).toBe('notice:command');

    // a skill sends its body with the named arguments substituted (an ACP agent does not know Atrium's skills)
    const skill = await sendAndWait(engine, s.id, { name: 'deploy', argumentText: 'staging' });
    expect(skill).toMatchObject({ kind: 'skill', text: 'Deploy to staging in  (staging).\n' });
    expect(agentText(engine, s.id)).toContain('Deploy to staging in  (staging).');
    // a skill body edited after the snapshot fails closed (its digest no longer matches)
    fs.writeFileSync(path.join(world.ws, '.claude/skills/deploy/SKILL.md'), '---\nname: deploy\ndescription: Deploy the app\n---\nDeploy somewhere else.\n');
    await expect(commands.preview(s.id, { name: 'deploy', argumentText: 'x' })).rejects.toMatchObject({ code: 'EXTENSION_CHANGED' });
    await expect(commands.send(s.id, { name: 'deploy', argumentText: 'x' })).rejects.toMatchObject({ code: 'EXTENSION_CHANGED' });
    // not user-invocable, unknown: refused with a reason
    await expect(commands.preview(s.id, { name: 'internal', argumentText: '' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(userMessages(engine, s.id)).toHaveLength(2);

    // a new session gets the new state
    const next = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect((await commands.preview(next.id, { name: 'review', argumentText: 'b' })).text).toBe('CHANGED on disk: b\n');
  });

  it('shell embeds: never run by a preview or a plain send, run only with this session’s single-use token in a trusted workspace; arguments never reach a shell', async () => {
    world = policyWorld({});
    const marker = path.join(world.base, 'pwned');
    world.write({ '.claude/commands/status.md': `Branch: !\`echo embedded-output\`\nHere: !\`pwd\`\nArgs: $ARGUMENTS\n` });
    world.write({ '.claude/commands/mine.md': 'User command: !`echo from-user`\n' }, world.home);
    const engine = world.open();
    world.trust(engine);
    const commands = sessionCommandsOf(engine);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    const args = `; touch ${marker}; $(touch ${marker}) \`touch ${marker}\``;

    const preview = await commands.preview(s.id, { name: 'status', argumentText: args });
    expect(preview.embeds.map((e) => e.command)).toEqual(['echo embedded-output', 'pwd']);
    expect(preview.embeds.map((e) => e.line)).toEqual([1, 2]);
    expect(preview).toMatchObject({ canRun: true, runBlockedReason: null });
    expect(preview.text).toContain('!`echo embedded-output`');
    expect(preview.text).toContain(`Args: ${args}`);

    // a send without a run token: the embeds stay as written, nothing runs
    const plain = await sendAndWait(engine, s.id, { name: 'status', argumentText: args });
    expect(plain.text).toContain('!`echo embedded-output`');
    expect(notices(engine, s.id, 'command')[0].detail).toContain('2 shell commands were not run and stay as written');

    // forged tokens, and a token of the Extensions tab (another place), are refused
    await expect(commands.runEmbeds(s.id, 'forged')).rejects.toMatchObject({ code: 'COMMAND_NOT_CONFIRMED' });
    const tabToken = (await engine.extensions.commandPreview(world.ws, 'status', { argumentText: 'x' })).confirmToken!;
    await expect(commands.runEmbeds(s.id, tabToken)).rejects.toMatchObject({ code: 'COMMAND_NOT_CONFIRMED' });
    const other = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    await expect(commands.runEmbeds(other.id, preview.confirmToken!)).rejects.toMatchObject({ code: 'COMMAND_NOT_CONFIRMED' });

    // the confirmed run: the embeds' outputs are inserted literally, in the workspace folder; the arguments stay text
    const ran = await commands.runEmbeds(s.id, preview.confirmToken!);
    expect(ran.runs.map((r) => [r.command, r.exitCode])).toEqual([
      ['echo embedded-output', 0],
      ['pwd', 0],
    ]);
    expect(ran.text).toBe(`Branch: embedded-output\nHere: ${fs.realpathSync(world.ws)}\nArgs: ${args}\n`);
    expect(fs.existsSync(marker)).toBe(false);
    await expect(commands.runEmbeds(s.id, preview.confirmToken!)).rejects.toMatchObject({ code: 'COMMAND_NOT_CONFIRMED' });

    // the run's send token sends exactly that text, once, for the same arguments only
    await expect(commands.send(s.id, { name: 'status', argumentText: 'other args', sendToken: ran.sendToken })).rejects.toMatchObject({ code: 'COMMAND_NOT_CONFIRMED' });
    const sent = await sendAndWait(engine, s.id, { name: 'status', argumentText: args, sendToken: ran.sendToken });
    expect(sent.text).toBe(ran.text);
    expect(agentText(engine, s.id)).toContain('Branch: embedded-output');
    expect(notices(engine, s.id, 'command')[1].detail).toContain('Ran 2 shell commands after your confirmation: echo embedded-output (exit 0); pwd (exit 0)');
    await expect(commands.send(s.id, { name: 'status', argumentText: args, sendToken: ran.sendToken })).rejects.toMatchObject({ code: 'COMMAND_NOT_CONFIRMED' });
    expect(fs.existsSync(marker)).toBe(false);

    // trust revoked after the snapshot: the session keeps its commands, but no embed may run any more
    const before = await commands.preview(s.id, { name: 'status', argumentText: '' });
    engine.trust.set(resolveFolder(world.ws), 'untrusted');
    const after = await commands.preview(s.id, { name: 'status', argumentText: '' });
    expect(after).toMatchObject({ canRun: false, confirmToken: null, runBlockedReason: expect.stringContaining('trusted workspaces') });
    await expect(commands.runEmbeds(s.id, before.confirmToken!)).rejects.toMatchObject({ code: 'TRUST_REFUSED' });

    // a restricted workspace from the start: project commands are inactive (counted), user commands listed, their embeds refused
    const restricted = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    const listed = await commands.list(restricted.id);
    expect(listed).toMatchObject({ trust: 'restricted', inactive: 1 });
    expect(listed.commands.map((c) => c.id)).toEqual(['mine']);
    await expect(commands.preview(restricted.id, { name: 'status', argumentText: '' })).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('restricted mode') });
    expect(await commands.preview(restricted.id, { name: 'mine', argumentText: '' })).toMatchObject({ canRun: false, confirmToken: null, runBlockedReason: expect.stringContaining('trusted workspaces') });
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('a worktree session resolves @path and runs embeds in its own tree; paths outside it are refused', async () => {
    world = policyWorld({});
    world.write({
      'notes.md': 'committed notes\n',
      '.claude/commands/read.md': 'Notes: @notes.md\nSecret: @../../etc/passwd\nWhere: !`pwd`\n',
    });
    world.gitInit();
    world.write({ 'notes.md': 'uncommitted notes of the main checkout\n' });
    const engine = world.open();
    world.trust(engine);
    const commands = sessionCommandsOf(engine);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted', worktree: true });
    const exec = engine.policy.execution(s.id);
    expect(exec.kind).toBe('worktree');

    const preview = await commands.preview(s.id, { name: 'read', argumentText: '' });
    expect(preview.text).toContain('committed notes');
    expect(preview.text).not.toContain('uncommitted notes');
    expect(preview.fileRefs).toEqual([
      { token: '@notes.md', path: 'notes.md', status: 'included', reason: null },
      { token: '@../../etc/passwd', path: '../../etc/passwd', status: 'refused', reason: 'it points outside the workspace' },
    ]);
    expect(preview.text).toContain('Secret: @../../etc/passwd');
    const ran = await commands.runEmbeds(s.id, preview.confirmToken!);
    expect(ran.text).toContain(`Where: ${exec.dir}`);
  });

  it('after a restart, before the agent starts again, commands come from the current bundle and say so', async () => {
    world = policyWorld({});
    world.write({ '.claude/commands/review.md': 'Review v1 $ARGUMENTS\n' });
    const first = world.open();
    world.trust(first);
    const s = first.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect((await sessionCommandsOf(first).list(s.id)).from).toBe('snapshot');
    await world.closeAll();

    world.write({ '.claude/commands/review.md': 'Review v2 $ARGUMENTS\n' });
    const second = world.open();
    const commands = sessionCommandsOf(second);
    const listed = await commands.list(s.id);
    expect(listed).toMatchObject({ from: 'current', takenAt: null });
    const preview = await commands.preview(s.id, { name: 'review', argumentText: 'x' });
    expect(preview).toMatchObject({ from: 'current', text: 'Review v2 x\n' });
    const sent = await sendAndWait(second, s.id, { name: 'review', argumentText: 'x' });
    expect(sent.text).toBe('Review v2 x\n');
    expect(notices(second, s.id, 'command')[0].detail).toContain('no snapshot in this process yet');
    expect((await commands.list(s.id)).from).toBe('snapshot');
    await expect(commands.list('no-such-session')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
  });
});
