import type { RuleCatalog } from '../catalog';
import { claudeView } from './claude';
import { codexView } from './codex';
import { ViewContext, type AgentName, type AgentView } from './common';
import { geminiView } from './gemini';

export type { AgentName, AgentView, AgentViewFile } from './common';

/**
 * "What would this agent load from `fromRel`" (issue 4 §4) for Codex, Claude Code or Gemini CLI:
 * files, bytes, and what is cut, truncated, skipped or ignored and why. `targetRel` (root-relative)
 * adds Claude's on-read files. Reads the disk (agents do not honour `.gitignore` the way Atrium's
 * catalog does); in restricted mode only names and sizes are read.
 */
export function agentView(catalog: RuleCatalog, agent: AgentName, fromRel: string, targetRel: string | null = null): Promise<AgentView> {
  const ctx = new ViewContext(catalog);
  if (agent === 'codex') return codexView(ctx, fromRel, targetRel);
  if (agent === 'claude') return claudeView(ctx, fromRel, targetRel);
  return geminiView(ctx, fromRel, targetRel);
}
