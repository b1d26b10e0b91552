import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewFolder } from '../../../src/main/core/trust/review/review';
import { hookWorld } from './helpers';

const frontmatter = (name: string, marker: string) => `---
name: ${name}
description: ${name} things
hooks:
  Stop:
    - hooks:
        - type: command
          command: touch ${marker}
---
Do the ${name} work.
`;

describe('skill and subagent frontmatter hooks', () => {
  it('never run in Atrium and are not offered for approval; the review and Extensions say so instead of promising approval', async () => {
    const w = hookWorld();
    w.write({ '.claude/skills/fix/SKILL.md': frontmatter('fix', 'skill-hook-ran'), '.claude/agents/reviewer.md': frontmatter('reviewer', 'agent-hook-ran') });
    const listing = await w.list();
    expect(listing.hooks).toEqual([]);
    const out = await w.engine.hooks.run('Stop', {}, { path: w.project });
    expect(out.results).toEqual([]);
    expect(fs.existsSync(path.join(w.project, 'skill-hook-ran'))).toBe(false);
    expect(fs.existsSync(path.join(w.project, 'agent-hook-ran'))).toBe(false);

    const review = await reviewFolder(w.project, { trustRoot: w.project, state: 'undecided', homeDir: w.home });
    const skill = review.items.find((i) => i.kind === 'skill')!;
    const agent = review.items.find((i) => i.kind === 'subagent')!;
    const texts = [...skill.warnings, ...agent.warnings].map((x) => x.message);
    expect(texts).toContain('declares 1 hook (Stop): Atrium never runs them and they cannot be approved (agents it launches load no skills of their own); an agent that loads this skill by itself runs them, without asking Atrium, only while the skill is invoked');
    expect(texts).toContain('declares hooks in its frontmatter: Atrium never runs them and they cannot be approved (agents it launches load no subagents of their own); an agent that loads this subagent by itself runs them, without asking Atrium, while the subagent is active');
    expect(agent.warnings.find((x) => x.message.startsWith('declares hooks'))!.line).toBe(4);
    expect(JSON.stringify(review)).not.toMatch(/once approved/);
    // the hooks themselves stay visible in the review as hook items
    expect(review.items.filter((i) => i.kind === 'hook').map((i) => i.path).sort()).toEqual(['.claude/agents/reviewer.md', '.claude/skills/fix/SKILL.md']);
  });
});
