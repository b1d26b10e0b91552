import { useState, type FormEvent } from 'react';
import type { AgentSummary, ParamsOf } from '../../../../shared/contract';

/** Splits a command line into words: whitespace separates, "double" and 'single' quotes group. */
export function splitArgs(line: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/**
 * Defines a user agent: any command that speaks ACP on stdin/stdout (run without a shell). The CLI
 * equivalent is `atrium agents define ID COMMAND ARGS…`.
 */
export function DefineAgentForm({ onDefine, onDone }: { onDefine(p: ParamsOf<'agents.define'>): Promise<AgentSummary>; onDone(agent: AgentSummary): void }) {
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [line, setLine] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    e.stopPropagation();
    const words = splitArgs(line);
    if (!id.trim() || words.length === 0) {
      setError('Give an id (e.g. "my-agent") and the command line that starts the agent in ACP mode (e.g. "opencode acp").');
      return;
    }
    setBusy(true);
    try {
      const agent = await onDefine({ id: id.trim(), name: name.trim() || undefined, command: words[0], args: words.slice(1) });
      setError(null);
      onDone(agent);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="sess-define" onSubmit={(e) => void submit(e)} aria-label="Define an agent">
      <div className="sess-define-grid">
        <label className="field">
          <span>Id</span>
          <input value={id} onChange={(e) => setId(e.target.value)} placeholder="my-agent" spellCheck={false} />
        </label>
        <label className="field">
          <span>Name (optional)</span>
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="My agent" />
        </label>
        <label className="field sess-define-command">
          <span>Command line (no shell; quotes group words)</span>
          <input value={line} onChange={(e) => setLine(e.target.value)} placeholder="opencode acp" spellCheck={false} />
        </label>
      </div>
      {error && <p className="field-error">{error}</p>}
      <p className="hint">
        The agent gets your environment; set per-agent variables with <code>atrium agents define … --env NAME=VALUE</code>.
      </p>
      <button className="button" type="submit" disabled={busy}>
        Define agent
      </button>
    </form>
  );
}
