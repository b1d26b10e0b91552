import { useMemo, useState } from 'react';
import { ShieldAlert } from 'lucide-react';
import type { ExtensionsListResult, Workspace } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { FilterBox, matchesFilter } from '../../components/FilterBox';
import { CommandsSection } from './CommandsSection';
import { ExtensionsFilter } from './common';
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

/** The fields the filter box searches in any extension: id, name, description, path, source, plugin, status, and what it runs. */
function extensionMatches(x: object, query: string): boolean {
  const r = x as Record<string, unknown>;
  const text = (k: string) => (typeof r[k] === 'string' ? (r[k] as string) : null);
  const args = Array.isArray(r.args) ? (r.args as unknown[]).filter((a): a is string => typeof a === 'string') : [];
  return matchesFilter(query, [text('id'), text('id') ? `/${text('id')}` : null, text('name'), text('description'), text('path'), text('source'), text('plugin'), text('status'), text('command'), text('url'), text('transport'), text('marketplace'), ...args]);
}

/** `data` with every list narrowed to the entries matching `query`. */
function filterExtensions(data: ExtensionsListResult, query: string): ExtensionsListResult {
  if (!query.trim()) return data;
  const keep = <T extends object>(list: T[]) => list.filter((x) => extensionMatches(x, query));
  return { ...data, skills: keep(data.skills), commands: keep(data.commands), agents: keep(data.agents), plugins: keep(data.plugins), mcpServers: keep(data.mcpServers), styles: keep(data.styles), lspServers: keep(data.lspServers) };
}

/**
 * The Extensions tab: the workspace's skills, commands, subagents, plugins, MCP servers,
 * output styles and LSP servers as the resource bundle holds them, one section per kind, with
 * source, path and parse warnings. Live: refreshes when the bundle rebuilds or trust changes. In
 * restricted mode it says what the project holds but does not activate, with a way to the review.
 */
export function ExtensionsTab({ workspace, onReview }: { workspace: Workspace; onReview(): void }) {
  const live = useLive('extensions.list', { workspaceId: workspace.id }, ['extensionsChanged', 'trustChanged']);
  const [query, setQuery] = useState('');
  const all = live.data;
  const data = useMemo(() => (all ? filterExtensions(all, query) : null), [all, query]);
  if (live.error && !all) return <div className="banner banner-error">{live.error}</div>;
  if (!data || !all) return <p className="muted">Reading extensions…</p>;
  const totals: Record<(typeof KINDS)[number][0], number> = {
    skills: all.skills.length,
    commands: all.commands.length,
    agents: all.agents.length,
    plugins: all.plugins.length,
    mcp: all.mcpServers.length,
    styles: all.styles.length,
    lsp: all.lspServers.length,
  };
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
  const sum = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);
  return (
    <ExtensionsFilter.Provider value={{ query, totals }}>
    <div className="ext-tab">
      <FilterBox value={query} onChange={setQuery} label="Filter extensions" placeholder="Filter extensions…" shown={sum(counts)} total={sum(totals)} noun="extensions" one="extension" />
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
    </ExtensionsFilter.Provider>
  );
}
