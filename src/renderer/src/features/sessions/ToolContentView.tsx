import { useEffect, useState } from 'react';
import type { ToolContent, ToolLocation } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import { DiffView } from './DiffView';

/** Paths (and lines) a tool call touches. */
export function Locations({ locations }: { locations: ToolLocation[] }) {
  if (!locations.length) return null;
  return (
    <ul className="sess-locations" aria-label="Locations">
      {locations.map((l, i) => (
        <li key={i}>
          <code className="sess-path selectable">
            {l.path}
            {l.line !== null ? `:${l.line}` : ''}
          </code>
        </li>
      ))}
    </ul>
  );
}

/** A tool call's content blocks: text output, file diffs, terminals. */
export function ToolContentView({ sessionId, content, running }: { sessionId: string; content: ToolContent[]; running: boolean }) {
  return (
    <>
      {content.map((c, i) => {
        if (c.type === 'diff') return <DiffView key={i} path={c.path} oldText={c.oldText} newText={c.newText} truncated={c.truncated} />;
        if (c.type === 'terminal') return <TerminalOutput key={i} sessionId={sessionId} terminalId={c.terminalId} running={running} />;
        const b = c.content;
        if (b.text !== null) return <pre key={i} className="sess-tool-output selectable">{b.text}</pre>;
        return (
          <p key={i} className="muted sess-tool-blob">
            [{b.type}
            {b.mimeType ? ` ${b.mimeType}` : ''}
            {b.name ? ` ${b.name}` : ''}
            {b.uri ? ` ${b.uri}` : ''}]
          </p>
        );
      })}
    </>
  );
}

/** Output of a terminal the agent ran (live while the tool runs, else the stored tail). */
function TerminalOutput({ sessionId, terminalId, running }: { sessionId: string; terminalId: string; running: boolean }) {
  const client = useApp((s) => s.client);
  const [out, setOut] = useState<{ output: string; truncated: boolean; exit: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!client) return;
    let live = true;
    const load = () =>
      client
        .request('sessions.terminalOutput', { sessionId, terminalId })
        .then((r) => {
          if (!live) return;
          const exit = r.exitStatus ? (r.exitStatus.signal ? `signal ${r.exitStatus.signal}` : `exit ${r.exitStatus.exitCode}`) : null;
          setOut({ output: r.output, truncated: r.truncated, exit });
          setError(null);
        })
        .catch((e: Error) => live && setError(e.message));
    void load();
    const t = running ? setInterval(() => void load(), 1000) : null;
    return () => {
      live = false;
      if (t) clearInterval(t);
    };
  }, [client, sessionId, terminalId, running]);
  return (
    <div className="sess-terminal">
      <div className="sess-terminal-head muted">
        terminal {terminalId}
        {out?.exit ? ` · ${out.exit}` : running ? ' · running' : ''}
        {out?.truncated ? ' · output truncated' : ''}
      </div>
      {error ? <p className="field-error">{error}</p> : <pre className="sess-tool-output selectable">{out?.output || (out ? '(no output)' : '…')}</pre>}
    </div>
  );
}
