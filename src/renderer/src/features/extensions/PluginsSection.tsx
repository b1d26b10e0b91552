import { useState } from 'react';
import { errorToast } from '../../components/errorToast';
import { toast } from 'sonner';
import type { ExtensionsListResult, PluginInfo } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import { Row, Section, SourceBadge, StatusBadge, Warnings } from './common';

type Scope = 'user' | 'project' | 'local';
const SCOPE_LABEL: Record<Scope, string> = { user: 'for me (all workspaces)', project: 'for this project (shared)', local: 'for me in this project' };
/** Who an enabling settings scope turns a plugin on for, as the enabled badge says it. */
const ON_FOR: Record<Scope, string> = { user: 'me everywhere', project: 'everyone in this project', local: 'me in this project' };

/**
 * The enable state as a badge: "on for: <who>" naming the settings scope that enabled it, "on
 * (default)" for a plugin folder nobody switched, "disabled", or the manifest error. Worded unlike
 * the origin badge ("from project") so where a plugin lives and who turned it on stay apart.
 */
function EnabledBadge({ plugin }: { plugin: PluginInfo }) {
  if (plugin.status !== 'enabled') return <StatusBadge status={plugin.status} />;
  const by = plugin.enabledBy;
  return (
    <span className="badge badge-ok ext-enabled" title={by ? `enabled by ${by.key} in ${by.file} (${by.scope} settings)` : 'plugin folders are on unless a setting turns them off'}>
      {by ? `on for: ${ON_FOR[by.scope]}` : 'on (default)'}
    </span>
  );
}

/** Plugins: version, what they contribute, and enable/disable per settings scope. */
export function PluginsSection({ workspaceId, data }: { workspaceId: string; data: ExtensionsListResult }) {
  return (
    <Section id="plugins" title="Plugins" count={data.plugins.length} empty={<>Plugins are folders with <code>.claude-plugin/plugin.json</code> in <code>.claude/plugins/</code> or <code>~/.claude/plugins/</code>, local entries of <code>.claude-plugin/marketplace.json</code>, or plugins installed from a marketplace (<code>~/.claude/plugins/installed_plugins.json</code>).</>}>
      {data.plugins.map((p) => (
        <Row key={p.id} testId={p.id} name={p.name} path={p.path} warnings={p.warnings.length} summary={p.description} badges={<><span className="hook-chip">{p.version ?? 'no version'}</span><SourceBadge source={p.source} from />{p.installScope && <span className="badge badge-muted" title={`installed from a marketplace (${p.installScope} scope); files in ${p.path}`}>installed</span>}{p.marketplace && <span className="badge badge-muted">{p.marketplace}</span>}<EnabledBadge plugin={p} /></>}>
          <PluginDetail workspaceId={workspaceId} plugin={p} />
        </Row>
      ))}
    </Section>
  );
}

function PluginDetail({ workspaceId, plugin }: { workspaceId: string; plugin: PluginInfo }) {
  const client = useApp((s) => s.client);
  const [scope, setScope] = useState<Scope>(plugin.enabledBy?.scope ?? 'local');
  const [busy, setBusy] = useState(false);
  const c = plugin.contributes;
  const parts = (
    [
      ['command', c.commands],
      ['skill', c.skills],
      ['subagent', c.agents],
      ['style', c.styles],
      ['hook', c.hooks],
      ['MCP server', c.mcpServers],
      ['LSP server', c.lspServers],
    ] as const
  ).filter(([, n]) => n > 0);
  const toggle = (enabled: boolean) => {
    setBusy(true);
    client
      ?.request('extensions.setPluginEnabled', { workspaceId, id: plugin.id, scope, enabled })
      .then((r) => toast.success(`${plugin.name} ${r.plugin.enabled ? 'enabled' : 'disabled'} in ${r.file}`))
      .catch((e: Error) => errorToast(e.message))
      .finally(() => setBusy(false));
  };
  return (
    <>
      <dl className="facts compact">
        <dt>Brings</dt>
        <dd>{parts.length ? parts.map(([w, n]) => `${n} ${w}${n === 1 ? '' : 's'}`).join(', ') : 'nothing Atrium lists'}</dd>
        <dt>State</dt>
        <dd>
          {plugin.status === 'error' ? 'not loaded (manifest error)' : plugin.enabled ? 'enabled' : 'disabled'}
          {plugin.enabledBy ? (
            <span className="muted"> · by <code>{plugin.enabledBy.key}</code> in <code>{plugin.enabledBy.file}</code></span>
          ) : (
            <span className="muted"> · default ({plugin.installScope ? `installed plugins are off until enabledPlugins "${plugin.name}@${plugin.marketplace}" turns them on` : plugin.marketplace ? 'marketplace entries are off until enabled' : 'plugin folders are on'})</span>
          )}
        </dd>
        {plugin.manifestPath && (<><dt>Manifest</dt><dd><code>{plugin.manifestPath}</code></dd></>)}
        {plugin.installScope && (<><dt>Installed</dt><dd>{plugin.installScope} scope, from marketplace <code>{plugin.marketplace}</code></dd></>)}
      </dl>
      <Warnings warnings={plugin.warnings} />
      {plugin.status !== 'error' && (
        <div className="ext-plugin-actions">
          <label className="field ext-scope">
            <span>Scope</span>
            <select value={scope} onChange={(e) => setScope(e.target.value as Scope)} aria-label={`Scope for ${plugin.name}`}>
              {(['local', 'project', 'user'] as const).map((s) => (
                <option key={s} value={s}>{SCOPE_LABEL[s]}</option>
              ))}
            </select>
          </label>
          <button className="button" disabled={busy} onClick={() => toggle(true)}>Enable</button>
          <button className="button" disabled={busy} onClick={() => toggle(false)}>Disable</button>
        </div>
      )}
    </>
  );
}
