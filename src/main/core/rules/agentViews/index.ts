import type { RuleCatalog } from '../catalog';
import { claudeView } from './claude';
import { codexView } from './codex';
import { flagRows, ViewContext, type AgentName, type AgentView, type AgentViewOptions } from './common';
import { copilotView } from './copilot';
import { geminiView } from './gemini';
import { revealSmuggling } from '../../formats/unicode';

export type { AgentName, AgentView, AgentViewFile, AgentViewOptions } from './common';
export { copilotApplies } from './copilot';
export { readCodexDocConfig, type CodexDocConfig } from './codex';

/**
 * "What would this agent load from `fromRel`" for Codex, Claude Code, Gemini CLI or
 * VS Code Copilot Chat: files, bytes, and what is cut, truncated, skipped or ignored and why.
 * `targetRel` (root-relative) adds the files loaded on touching that path. Reads the disk (agents
 * do not honour `.gitignore` the way Atrium's catalog does); in restricted mode only names and
 * sizes are read, and a file that resolves outside the workspace is never read. Rows of files
 * Atrium flags with an error say "the agent loads it; Atrium flags it" (see `flagRows`). `content`
 * is the agent's text with smuggling characters (TAG text, selector runs, bidi controls) shown as
 * `⟨U+XXXX⟩`: compare an agent's request through `revealSmuggling`.
 * `options.codexHome` = Codex's `$CODEX_HOME` (default `<homeDir>/.codex`).
 */
export async function agentView(catalog: RuleCatalog, agent: AgentName, fromRel: string, targetRel: string | null = null, options: AgentViewOptions = {}): Promise<AgentView> {
  const ctx = new ViewContext(catalog);
  const view =
    agent === 'codex'
      ? await codexView(ctx, fromRel, targetRel, options.codexHome)
      : agent === 'claude'
        ? await claudeView(ctx, fromRel, targetRel)
        : agent === 'copilot'
          ? await copilotView(ctx, fromRel, targetRel)
          : await geminiView(ctx, fromRel, targetRel);
  flagRows(ctx, view.files);
  // The agent receives smuggling characters raw; what Atrium shows never applies them.
  return { ...view, content: revealSmuggling(view.content) };
}
