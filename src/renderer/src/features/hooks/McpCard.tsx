import { useState } from 'react';
import { AlertTriangle } from 'lucide-react';
import type { McpServer } from '../../../../shared/contract';
import { HookDiff } from './HookDiff';
import { sourceLabel } from './HookCard';
import { HookStateBadge } from './StateBadge';
import { DangerList, UncoveredList } from './Uncovered';

/** The command line or URL of an MCP server, literally (secret-looking values already masked by the engine). */
export function serverLiteral(s: McpServer): string {
  if (s.command !== null) return [s.command, ...s.args.map((a) => (/[\s"'$`\\]/.test(a) || a === '' ? JSON.stringify(a) : a))].join(' ');
  return s.url ?? '(no command or URL)';
}

/** One repository MCP server, approved by digest like a hook: what it starts, with env and headers (masked), the scripts it runs, what the digest does not cover, state, actions. */
export function McpCard({ server, workspaceId, busy, onApprove, onRevoke }: { server: McpServer; workspaceId: string; busy: boolean; onApprove(s: McpServer): void; onRevoke(s: McpServer): void }) {
  // a modified item shows its diff unless the user hid it
  const [diffHidden, setDiffHidden] = useState(false);
  const showDiff = !diffHidden;
  const env = Object.entries(server.env);
  const headers = Object.entries(server.headers);
  return (
    <article className={`hook-card hook-card-${server.state}${server.uncovered.length ? ' hook-card-uncovered' : ''}`} tabIndex={-1} data-mcp-id={server.id} data-state={server.state} aria-label={`MCP server ${server.name}`}>
      <header className="hook-card-head">
        <HookStateBadge state={server.state} heldBack={server.heldBack} />
        <span className="hook-chip">{server.transport}</span>
        <strong className="hook-server-name">{server.name}</strong>
        <span className="hook-source" title={server.source.absolutePath}>
          {sourceLabel(server)}
        </span>
      </header>
      <pre className="hook-command" aria-label="Literal command">
        {serverLiteral(server)}
      </pre>
      {(env.length > 0 || headers.length > 0 || server.cwd) && (
        <dl className="hook-kv">
          {server.cwd && (
            <>
              <dt>cwd</dt>
              <dd>
                <code>{server.cwd}</code>
              </dd>
            </>
          )}
          {env.map(([k, v]) => (
            <Pair key={`env:${k}`} label="env" name={k} value={v} />
          ))}
          {headers.map(([k, v]) => (
            <Pair key={`h:${k}`} label="header" name={k} value={v} />
          ))}
        </dl>
      )}
      {server.variables.length > 0 && <McpExpansionView server={server} />}
      {server.scripts.length > 0 && (
        <ul className="hook-scripts" aria-label="Scripts it runs">
          {server.scripts.map((sc) => (
            <li key={sc.path}>
              <code>{sc.path}</code>
              <span className="muted hook-script-meta">
                {sc.size} bytes · sha256 {sc.sha256.slice(0, 12)}…
              </span>
              {sc.outsideWorkspace && <span className="badge badge-warn">outside the workspace</span>}
            </li>
          ))}
        </ul>
      )}
      <UncoveredList uncovered={server.uncovered} />
      <DangerList danger={server.danger} />
      {server.warnings.map((w, i) => (
        <p key={i} className="warning-line hook-warning">
          <AlertTriangle size={13} aria-hidden /> {w.message}
          {w.fix && <em> {w.fix}</em>}
        </p>
      ))}
      <footer className="hook-card-foot">
        <code className="hook-digest selectable" title="Digest of name, transport, command, args, cwd, url, env, headers and source (values included)">
          {server.digest}
        </code>
        {server.state === 'modified' && (
          <button className="link-button" aria-expanded={showDiff} onClick={() => setDiffHidden(showDiff)}>
            {showDiff ? 'Hide changes' : 'Show changes'}
          </button>
        )}
        {server.approval && (
          <button className="button" disabled={busy} onClick={() => onRevoke(server)}>
            Revoke
          </button>
        )}
        {(server.state === 'unapproved' || server.state === 'modified') && (
          <button className="button primary" disabled={busy} onClick={() => onApprove(server)}>
            {server.state === 'modified' ? 'Approve this version' : 'Approve'}
          </button>
        )}
      </footer>
      {server.state === 'modified' && showDiff && <HookDiff key={server.digest} workspaceId={workspaceId} id={server.id} />}
    </article>
  );
}

/** The tool whose variable syntax a server's file uses (`McpExpansion.dialect`). */
const DIALECT_NAMES: Record<string, string> = { 'claude-code': 'Claude Code', 'gemini-cli': 'Gemini CLI', cursor: 'Cursor', vscode: 'VS Code' };

/**
 * What the definition reads from the environment and what it expands to now (secrets masked by the
 * engine): the approved digest covers the references as written, this is what a session would pass.
 */
function McpExpansionView({ server }: { server: McpServer }) {
  const x = server.expansion;
  const blocked = x !== null && (x.missing.length > 0 || x.unresolvable.length > 0);
  const literal = x ? serverLiteral({ ...server, command: x.command, args: x.args, url: x.url }) : null;
  const changedEnv = x ? Object.entries(x.env).filter(([k, v]) => server.env[k] !== v) : [];
  const changedHeaders = x ? Object.entries(x.headers).filter(([k, v]) => server.headers[k] !== v) : [];
  return (
    <section className={`hook-expansion${blocked ? ' hook-expansion-blocked' : ''}`} aria-label="Variables it reads">
      <p className="hook-expansion-reads">
        <span className="muted">Reads</span>{' '}
        {server.variables.map((v) => (
          <code key={v.text} className="hook-chip" title={v.kind === 'env' ? `environment variable ${v.name}${v.fallback !== null ? ` (default "${v.fallback}")` : ''}` : v.kind === 'input' ? 'a prompt VS Code would show' : 'a value the tool supplies'}>
            {v.text}
          </code>
        ))}
      </p>
      {x && (
        <>
          <p className="hook-expansion-status">
            {blocked ? (
              <span className="badge badge-warn">withheld from sessions</span>
            ) : (
              <span className="badge">expanded</span>
            )}{' '}
            <span className="muted">
              {blocked
                ? [...x.missing.map((m) => `${m} is not set`), ...x.unresolvable.map((u) => `${u.text} cannot be expanded`)].join('; ')
                : `from Atrium's environment, as ${DIALECT_NAMES[x.dialect] ?? x.dialect} does; the digest covers the definition as written`}
            </span>
          </p>
          {x.blanked.length > 0 && (
            <p className="hook-expansion-status" data-testid="mcp-blanked">
              <span className="badge badge-warn">blanked</span>{' '}
              <span className="muted">{x.blanked.map((b) => `${b.name} (${b.why}; passed empty)`).join('; ')}</span>
            </p>
          )}
          <pre className="hook-command hook-command-expanded" aria-label="Expanded command">
            {literal}
          </pre>
          {(changedEnv.length > 0 || changedHeaders.length > 0) && (
            <dl className="hook-kv" aria-label="Expanded values">
              {changedEnv.map(([k, v]) => (
                <Pair key={`env:${k}`} label="env" name={k} value={v} />
              ))}
              {changedHeaders.map(([k, v]) => (
                <Pair key={`h:${k}`} label="header" name={k} value={v} />
              ))}
            </dl>
          )}
        </>
      )}
    </section>
  );
}

function Pair({ label, name, value }: { label: string; name: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <code>{name}</code> = <code className={value === '••••••' ? 'masked' : undefined} title={value === '••••••' ? 'Looks like a secret: hidden here (it is part of the digest)' : undefined}>{value}</code>
      </dd>
    </>
  );
}
