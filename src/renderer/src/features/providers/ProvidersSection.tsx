import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { Provider, ProviderKind } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { useApp } from '../../state/appStore';
import './providers.css';

const KINDS: Array<{ kind: ProviderKind; label: string; placeholder: string }> = [
  { kind: 'anthropic', label: 'Anthropic', placeholder: 'https://api.anthropic.com' },
  { kind: 'openai', label: 'OpenAI', placeholder: 'https://api.openai.com/v1' },
  { kind: 'openai-compatible', label: 'OpenAI-compatible', placeholder: 'http://127.0.0.1:11434/v1' },
  { kind: 'gemini', label: 'Gemini', placeholder: 'https://generativelanguage.googleapis.com' },
  { kind: 'bedrock', label: 'Amazon Bedrock', placeholder: 'https://bedrock-runtime.us-east-1.amazonaws.com' },
  { kind: 'vertex', label: 'Google Vertex AI', placeholder: 'https://us-east5-aiplatform.googleapis.com/v1' },
];

/**
 * Settings → Providers and keys: the user's model providers (kind, base URL), where keys are kept
 * (with the warning when that is a plain file), and per provider: test connection, set or rotate
 * the key (typed into a password field, never shown again), remove.
 */
export function ProvidersSection() {
  const live = useLive('providers.list', {}, ['providersChanged']);
  const [adding, setAdding] = useState(false);
  const providers = live.data?.providers ?? [];
  const store = live.data?.store;
  return (
    <div className="prov-section">
      <p className="hint">
        A provider is an endpoint an agent talks to (your company gateway, Anthropic directly, a local model). Pick one per workspace and agent in the
        workspace's Agent settings; sessions record it when they start.
      </p>
      {store && (
        <div className="prov-store">
          <span className="muted">Keys are kept in</span> <code>{store.label}</code>
        </div>
      )}
      {store?.warning && (
        <div className="banner banner-warn" role="status" data-testid="prov-store-warning">
          {store.warning}
        </div>
      )}
      {live.error && <div className="banner banner-error">{live.error}</div>}
      {providers.length === 0 && live.data && !adding && (
        <p className="muted" data-testid="prov-empty">
          No providers yet. Agents use the keys and endpoints in the environment Atrium was started with. Add a provider to give a workspace its own
          endpoint and key.
        </p>
      )}
      {providers.length > 0 && (
        <table className="prov-table" aria-label="Providers">
          <thead>
            <tr>
              <th>Provider</th>
              <th>Kind</th>
              <th>Endpoint</th>
              <th>Key</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {providers.map((p) => (
              <ProviderRow key={p.id} provider={p} />
            ))}
          </tbody>
        </table>
      )}
      {adding ? (
        <AddProviderForm onDone={() => setAdding(false)} />
      ) : (
        <button className="button" style={{ marginTop: 10 }} onClick={() => setAdding(true)}>
          Add provider
        </button>
      )}
    </div>
  );
}

function ProviderRow({ provider: p }: { provider: Provider }) {
  const client = useApp((s) => s.client);
  const [keyOpen, setKeyOpen] = useState(false);
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const saveKey = async (e: FormEvent) => {
    e.preventDefault();
    if (!client || !key.trim()) return;
    setBusy(true);
    try {
      const r = await client.request('providers.setKey', { id: p.id, key });
      toast(`${p.hasKey ? 'Rotated' : 'Stored'} the key of ${p.name} (…${r.provider.keyHint}); sessions use it from their next agent start`);
      setKey('');
      setKeyOpen(false);
    } catch (error) {
      toast.error(`Could not store the key: ${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  const test = async () => {
    if (!client) return;
    setBusy(true);
    setResult(null);
    try {
      setResult(await client.request('providers.test', { id: p.id }));
    } catch (error) {
      setResult({ ok: false, message: (error as Error).message });
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!client || !window.confirm(`Remove provider "${p.name}" and its key? Running sessions keep what they started with.`)) return;
    try {
      await client.request('providers.remove', { id: p.id });
    } catch (error) {
      // the engine refuses while workspace agent settings choose the provider and names them
      const message = (error as Error).message.replace(/,? or remove it anyway with `--force`\./, '.');
      if (!window.confirm(`${message}\n\nRemove it anyway?`)) return;
      await client.request('providers.remove', { id: p.id, force: true }).catch((e: Error) => toast.error(e.message));
    }
  };
  return (
    <tr data-testid={`provider-${p.id}`}>
      <td>
        <strong>{p.name}</strong>
        {p.name !== p.id && <div className="muted">{p.id}</div>}
      </td>
      <td>{KINDS.find((k) => k.kind === p.kind)?.label ?? p.kind}</td>
      <td>
        <code>{p.baseUrl ?? 'default endpoint'}</code>
      </td>
      <td>
        {p.hasKey ? <span className="badge badge-ok">…{p.keyHint}</span> : <span className="badge badge-warn">no key</span>}
        {keyOpen && (
          <form className="prov-key-row" onSubmit={(e) => void saveKey(e)}>
            <label className="field">
              <span>{p.hasKey ? 'New key' : 'Key'}</span>
              <input type="password" autoComplete="off" spellCheck={false} value={key} onChange={(e) => setKey(e.target.value)} aria-label={`Key for ${p.name}`} autoFocus />
            </label>
            <button className="button primary" type="submit" disabled={busy || !key.trim()}>
              Save key
            </button>
            <button className="button" type="button" onClick={() => setKeyOpen(false)}>
              Cancel
            </button>
          </form>
        )}
        {result && (
          <div className={`prov-result ${result.ok ? 'ok' : 'fail'}`} role="status">
            {result.message}
          </div>
        )}
      </td>
      <td>
        <div className="prov-actions">
          <button className="button" onClick={() => void test()} disabled={busy || !p.hasKey} title={p.hasKey ? 'List models at this endpoint with the key' : 'Add a key first'}>
            Test connection
          </button>
          <button className="button" onClick={() => setKeyOpen(true)} disabled={keyOpen}>
            {p.hasKey ? 'Rotate key' : 'Add key'}
          </button>
          <button className="button danger-ghost" onClick={() => void remove()}>
            Remove
          </button>
        </div>
      </td>
    </tr>
  );
}

function AddProviderForm({ onDone }: { onDone(): void }) {
  const client = useApp((s) => s.client);
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [kind, setKind] = useState<ProviderKind>('anthropic');
  const [baseUrl, setBaseUrl] = useState('');
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!client) return;
    setBusy(true);
    setError(null);
    try {
      await client.request('providers.save', { id: id.trim(), name: name.trim() || undefined, kind, baseUrl: baseUrl.trim() || null });
      if (key.trim()) await client.request('providers.setKey', { id: id.trim(), key });
      toast(`Added provider ${name.trim() || id.trim()}`);
      onDone();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="prov-form" onSubmit={(e) => void submit(e)} aria-label="Add a provider">
      <label className="field">
        <span>Id (for the command line)</span>
        <input value={id} onChange={(e) => setId(e.target.value.toLowerCase())} placeholder="work-gateway" required pattern="[a-z0-9][a-z0-9_\-]{0,63}" title="Lowercase letters, digits, - and _ (up to 64), starting with a letter or digit" autoFocus />
      </label>
      <label className="field">
        <span>Name</span>
        <input value={name} onChange={(e) => setName(e.target.value)} placeholder="Company gateway" />
      </label>
      <label className="field">
        <span>Kind</span>
        <select aria-label="Kind" value={kind} onChange={(e) => setKind(e.target.value as ProviderKind)}>
          {KINDS.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.label}
            </option>
          ))}
        </select>
      </label>
      <label className="field grow">
        <span>{kind === 'openai-compatible' ? 'Base URL (required: this kind has no endpoint of its own)' : "Base URL (empty: the kind's own endpoint)"}</span>
        <input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder={KINDS.find((k) => k.kind === kind)?.placeholder} type="url" required={kind === 'openai-compatible'} />
      </label>
      <label className="field">
        <span>Key (optional now)</span>
        <input type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} />
      </label>
      <button className="button primary" type="submit" disabled={busy || !id.trim()}>
        Add
      </button>
      <button className="button" type="button" onClick={onDone}>
        Cancel
      </button>
      {error && <p className="field-error" style={{ flexBasis: '100%' }}>{error}</p>}
    </form>
  );
}
