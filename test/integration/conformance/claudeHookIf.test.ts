import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Parser } from 'web-tree-sitter';
import { bashParser } from '../../../src/main/core/formats/shell/grammar';
import { hookMatches } from '../../../src/main/core/hooks/run';
import type { HookEntry } from '../../../src/main/core/hooks/listing';
import { startFakeAnthropic } from '../../support/fakeAnthropic';
import { agentTestEnv } from '../../support/policy';
import { tempDir } from '../../support/tempDir';

/**
 * Conformance of a hook's `if: "Bash(...)"` with Claude Code 2.1.318 itself: the native `claude`
 * binary of @anthropic-ai/claude-agent-sdk runs in print mode against a fake Messages endpoint
 * whose model issues one Bash call per command below; a PreToolUse hook with the rule logs its
 * stdin and blocks (exit 2), so nothing runs. On the commands Claude Code analyses, Atrium's
 * matcher must fire exactly where Claude Code's hook fired; on those Claude Code cannot analyse
 * (it fires for every rule) Atrium fires where the command really matches; and Atrium's guards
 * also fire on the wrapper, `bash -c` and `eval` forms Claude Code's hook `if` misses.
 */
function claudeBinary(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const pkg = require.resolve(`@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}/package.json`);
    const bin = path.join(path.dirname(pkg), process.platform === 'win32' ? 'claude.exe' : 'claude');
    return fs.existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}
const CLAUDE = claudeBinary();
if (!CLAUDE) console.log('skipping Claude hook-if conformance: the claude-agent-sdk native binary is not installed');

/** Runs Claude Code once with `if: rule`; returns the commands its hook fired on. */
async function claudeFires(rule: string, commands: string[]): Promise<Set<string>> {
  const base = tempDir('atrium-claude-if-');
  const home = path.join(base, 'home');
  const ws = path.join(base, 'ws');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(path.join(ws, '.claude'), { recursive: true });
  const log = path.join(base, 'fired.jsonl');
  const hook = path.join(base, 'hook.sh');
  fs.writeFileSync(hook, `#!/bin/sh\ncat >> '${log}'\necho >> '${log}'\necho blocked >&2\nexit 2\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(ws, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', if: rule, command: hook }] }] } }));
  let next = 0;
  const fake = await startFakeAnthropic((req) => {
    const tools = (req.body as { tools?: unknown[] }).tools;
    if (!Array.isArray(tools) || tools.length === 0) return { text: 'ok' };
    if (next < commands.length) return { toolUse: { name: 'Bash', input: { command: commands[next++], description: 'conformance' } } };
    return { text: 'Done.' };
  });
  try {
    const env = agentTestEnv(/^(ANTHROPIC_|CLAUDE)/, { HOME: home, IS_SANDBOX: '1', ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'sk-ant-fake', DISABLE_AUTOUPDATER: '1' });
    // dontAsk: a call the hook does not block is refused by Claude Code's permissions, so nothing runs
    const child = spawn(CLAUDE!, ['-p', 'go', '--permission-mode', 'dontAsk', '--output-format', 'json'], { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (next !== commands.length) throw new Error(`Claude Code asked for ${next} of ${commands.length} commands (exit ${code}): ${output.slice(0, 2000)}`);
  } finally {
    await fake.close();
  }
  const lines = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter((l) => l.trim()) : [];
  return new Set(lines.map((l) => (JSON.parse(l) as { tool_input: { command: string } }).tool_input.command));
}

const entry = (rule: string) => ({ format: 'claude', matcherRaw: 'Bash', fields: { type: 'command', if: rule } }) as unknown as HookEntry;

/** Commands Claude Code analyses, bash running `git push`/`git stash` in some and not in others. */
const COMMANDS = [
  'git push', 'git push origin main', 'git pushx', 'git  push', 'FOO=bar git push', '\\git push', '"git" push', "'git' 'push'",
  'true && git push', 'git push; :', 'false || git push', 'echo a | git push', 'ls\ngit push', '(git push)', '! git push',
  '$(git push)', 'if true; then git push; fi', 'git push 2>&1', 'git push &', 'xargs git push', '# git push', "echo 'git push'",
  'echo git push', 'git status', 'git stash', 'git stash pop', 'git stashfoo', 'FOO=1 git stash list', 'git -C . push',
];
/**
 * Commands that run `git push` but that Claude Code 2.1.318 cannot analyse: its hook fires on them
 * whatever the rule says (it fails open). Atrium reads them with the bash grammar.
 */
const UNANALYSED = ['{ git push; }', 'echo `git push`', 'echo "$(git push)"', 'diff <(git push) x', 'f() { git push; }; f', 'git pu\\\nsh'];
/** Forms Claude Code's hook `if` does not look into (its deny rules unwrap the wrappers); Atrium's guards do. */
const WRAPPED = ['env FOO=1 git push', 'command git push', 'timeout 5 git push', 'nohup git push', 'sudo git push', '/usr/bin/git push', "bash -c 'git push'", 'eval git push'];

let parser: Parser;
beforeAll(async () => {
  parser = await bashParser();
});

describe('hook "if" Bash rules match what Claude Code 2.1.318 matches', () => {
  for (const rule of ['Bash(git push *)', 'Bash(git push:*)', 'Bash(git stash *)', 'Bash(git push)']) {
    it.skipIf(!CLAUDE)(
      `${rule}`,
      async () => {
        const fired = await claudeFires(rule, [...COMMANDS, ...UNANALYSED, ...WRAPPED]);
        expect(fired.size).toBeGreaterThan(0);
        const atrium = (command: string) => hookMatches(entry(rule), 'PreToolUse', { tool_name: 'Bash', tool_input: { command } }, { path: '/w', homeDir: '/h', shellParser: parser });
        const differences = COMMANDS.filter((c) => atrium(c) !== fired.has(c)).map((c) => ({ command: c, claude: fired.has(c), atrium: atrium(c) }));
        expect(differences).toEqual([]);
        const pushRule = rule !== 'Bash(git stash *)';
        for (const c of UNANALYSED) {
          expect({ command: c, claude: fired.has(c) }).toEqual({ command: c, claude: true });
          expect({ command: c, atrium: atrium(c) }).toEqual({ command: c, atrium: pushRule });
        }
        for (const c of WRAPPED) {
          expect({ command: c, claude: fired.has(c) }).toEqual({ command: c, claude: false });
          expect({ command: c, atrium: atrium(c) }).toEqual({ command: c, atrium: pushRule });
        }
      },
      120_000,
    );
  }
});
