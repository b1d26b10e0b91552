import type { RuleCatalog } from '../catalog';
import { claudeView } from './claude';
import { codexView } from './codex';
import { ViewContext, type AgentName, type AgentView, type AgentViewOptions } from './common';
import { copilotView } from './copilot';
import { geminiView } from './gemini';

export type { AgentName, AgentView, AgentViewFile, AgentViewOptions } from './common';
export { copilotApplies } from './copilot';
export { readCodexDocConfig, type CodexDocConfig } from './codex';

/**
 * "What would this agent load from `fromRel`" (issue 4 §4) for Codex, Claude Code, Gemini CLI or
 * VS Code Copilot Chat: files, bytes, and what is cut, truncated, skipped or ignored and why.
 * `targetRel` (root-relative) adds the files loaded on touching that path. Reads the disk (agents
 * do not honour `.gitignore` the way Atrium's catalog does); in restricted mode only names and
 * sizes are read, and a file that resolves outside the workspace is never read.
 * `options.codexHome` = Codex's `$CODEX_HOME` (default `<homeDir>/.codex`).
 */
export function agentView(catalog: RuleCatalog, agent: AgentName, fromRel: string, targetRel: string | null = null, options: AgentViewOptions = {}): Promise<AgentView> {
  const ctx = new ViewContext(catalog);
  if (agent === 'codex') return codexView(ctx, fromRel, targetRel, options.codexHome);
  if (agent === 'claude') return claudeView(ctx, fromRel, targetRel);
  if (agent === 'copilot') return copilotView(ctx, fromRel, targetRel);
  return geminiView(ctx, fromRel, targetRel);
}
