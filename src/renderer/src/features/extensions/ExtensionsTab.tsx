import { ShieldAlert } from 'lucide-react';
import type { Workspace } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { CommandsSection } from './CommandsSection';
import { PluginsSection } from './PluginsSection';
import { SkillsSection } from './SkillsSection';
import { AgentsSection, LspSection, McpSection, StylesSection } from './sections';

const KINDS = [
  ['skills', 'Skills'],
  ['commands', 'Commands'],
  ['agents', 'Subagents'],
  ['plugins', 'Plugins'],
  ['mcp', 'MCP'],
  ['styles', 'Styles'],
  ['lsp', 'LSP'],
] as const;

/**
 * The Extensions tab: the workspace's skills, commands, subagents, plugins, MCP servers,
 * output styles and LSP servers as the resource bundle holds them, one section per kind, with
 * source, path and parse warnings. Live: refreshes when the bundle rebuilds or trust changes. In
 * restricted mode it says what the project holds but does not activate, with a way to the review.
 */
export function ExtensionsTab({ workspace, onReview }: { workspace: Workspace; onReview(): void }) {
  const live = useLive('extensions.list', { workspaceId: workspace.id }, ['extensionsChanged', 'trustChanged']);
  const data = live.data;
  if (live.error && !data) return <div className="banner banner-error">{live.error}</div>;
  if (!data) return <p className="muted">Reading extensions…</p>;
  const counts: Record<(typeof KINDS)[number][0], number> = {
    skills: data.skills.length,
    commands: data.commands.length,
    agents: data.agents.length,
    plugins: data.plugins.length,
    mcp: data.mcpServers.length,
    styles: data.styles.length,
    lsp: data.lspServers.length,
  };
  const inactive = Object.entries(data.restrictedCounts).filter(([, n]) => n > 0);
  return (
    <div className="ext-tab">
      <nav className="ext-nav" aria-label="Extension kinds">
        {KINDS.map(([k, label]) => (
          <a key={k} href={`#ext-section-${k}`} className="ext-nav-link" onClick={(e) => (e.preventDefault(), document.getElementById(`ext-section-${k}`)?.scrollIntoView({ block: 'start' }))}>
            {label} <span className="muted">{counts[k]}</span>
          </a>
        ))}
      </nav>
      {data.trust === 'restricted' && (
        <div className="banner banner-warn restricted-inline" role="note">
          <ShieldAlert size={15} aria-hidden />
          <span>
            Restricted mode: project extensions are inactive; only your user-level ones are listed.
            {inactive.length > 0 && ` Trusting would activate ${inactive.map(([k, n]) => `${n} ${k === 'mcp' ? 'MCP server' : k === 'lsp' ? 'LSP server' : k.replace(/s$/, '')}${n === 1 ? '' : 's'}`).join(', ')}.`}
          </span>
          <button className="button" onClick={onReview}>
            Review and trust…
          </button>
        </div>
      )}
      {data.warnings.length > 0 && (
        <details className="ext-global-warnings">
          <summary>
            {data.warnings.length} warning{data.warnings.length === 1 ? '' : 's'} about extension folders
          </summary>
          <ul className="finding-list">
            {data.warnings.map((w, i) => (
              <li key={i} className="finding finding-warning">
                <code className="ext-where">{w.path}{w.line ? `:${w.line}` : ''}</code> {w.message}
                {w.fix && <div className="finding-fix">Fix: {w.fix}</div>}
              </li>
            ))}
          </ul>
        </details>
      )}
      <SkillsSection workspaceId={workspace.id} data={data} />
      <CommandsSection workspaceId={workspace.id} data={data} />
      <AgentsSection data={data} />
      <PluginsSection workspaceId={workspace.id} data={data} />
      <McpSection data={data} />
      <StylesSection data={data} />
      <LspSection data={data} />
    </div>
  );
}
