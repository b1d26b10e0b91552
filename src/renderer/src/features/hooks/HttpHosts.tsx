import { useState, type FormEvent } from 'react';
import { Globe, X } from 'lucide-react';
import { toast } from 'sonner';
import type { HookListing } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';

/**
 * The http hook host allowlist, shown when a workspace has http hooks or
 * hosts are allowed: hosts the user allowed (each removable), hosts of this workspace's http hooks
 * that the policy would refuse (one click to allow), and a field to allow another host
 * (`example.com` exact, `*.example.com` for subdomains). The list is global: it applies to every
 * workspace, as the engine's policy does.
 */
export function HttpHosts({ listing }: { listing: HookListing }) {
  const client = useApp((s) => s.client);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const allowed = listing.httpAllowedHosts;
  const httpHooks = listing.hooks.filter((h) => h.type === 'http' && h.url);
  // the engine decides which hosts its address policy refuses (`refusedHost`, already net of the allowlist)
  const suggested = [...new Set(httpHooks.map((h) => h.refusedHost).filter((h): h is string => typeof h === 'string'))];
  if (httpHooks.length === 0 && allowed.length === 0) return null;

  const set = async (host: string, allow: boolean) => {
    if (!client) return false;
    setBusy(true);
    try {
      await client.request('hooks.allowHttpHost', { host, allowed: allow });
      toast(allow ? `http hooks may now reach ${host}` : `${host} is subject to the address policy again`);
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (draft.trim() && (await set(draft.trim(), true))) setDraft('');
  };

  return (
    <section className="hooks-group http-hosts" aria-label="http hook hosts">
      <h2 className="hooks-group-title">
        <Globe size={14} aria-hidden /> http hook hosts
      </h2>
      <p className="hint">
        http hooks may only POST to https addresses outside loopback and private networks. A host you allow here skips that check for every workspace; an approved hook still
        needs its own approval.
      </p>
      {suggested.length > 0 && (
        <ul className="http-hosts-list" aria-label="Hosts refused by the policy">
          {suggested.map((host) => (
            <li key={host}>
              <code>{host}</code> <span className="muted">is plain http or a loopback/private address: calls to it are refused.</span>
              <button className="button" disabled={busy} onClick={() => void set(host, true)}>
                Allow {host}
              </button>
            </li>
          ))}
        </ul>
      )}
      {allowed.length > 0 ? (
        <ul className="http-hosts-list" aria-label="Allowed hosts">
          {allowed.map((host) => (
            <li key={host}>
              <code>{host}</code>
              <button className="icon-button" disabled={busy} aria-label={`Remove ${host}`} title="Remove: apply the address policy to this host again" onClick={() => void set(host, false)}>
                <X size={13} aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No host is allowed: every http hook follows the policy.</p>
      )}
      <form className="http-hosts-form" onSubmit={(e) => void submit(e)}>
        <label htmlFor="http-host-input">Allow a host</label>
        <input id="http-host-input" value={draft} placeholder="hooks.example.com or *.example.com" onChange={(e) => setDraft(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? 'http-host-error' : undefined} />
        <button className="button" type="submit" disabled={busy || !draft.trim()}>
          Allow
        </button>
      </form>
      {error && (
        <p id="http-host-error" className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
