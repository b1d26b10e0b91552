import type { RuleCatalog } from '../catalog';
import { claudeView } from './claude';
import { codexView } from './codex';
import { flagRows, ViewContext, type AgentName, type AgentView } from './common';
import { geminiView } from './gemini';

export type { AgentName, AgentView, AgentViewFile } from './common';

/**
 * "What would this agent load from `fromRel`" (issue 4 §4) for Codex, Claude Code or Gemini CLI:
 * files, bytes, and what is cut, truncated, skipped or ignored and why. `targetRel` (root-relative)
 * adds Claude's on-read files. Reads the disk (agents do not honour `.gitignore` the way Atrium's
 * catalog does); in restricted mode only names and sizes are read. Rows of files Atrium flags with
 * an error say "the agent loads it; Atrium flags it" (see `flagRows`).
 */
export async function agentView(catalog: RuleCatalog, agent: AgentName, fromRel: string, targetRel: string | null = null): Promise<AgentView> {
  const ctx = new ViewContext(catalog);
  const view = agent === 'codex' ? await codexView(ctx, fromRel, targetRel) : agent === 'claude' ? await claudeView(ctx, fromRel, targetRel) : await geminiView(ctx, fromRel, targetRel);
  flagRows(ctx, view.files);
  return view;
}
