import { useEffect } from 'react';
import { toast } from 'sonner';
import { useApp } from '../../state/appStore';
import { useHooksListing } from './useHooks';

/**
 * The Hooks tab's badge: how many hooks or MCP servers are `modified` (changed since approval) or
 * need approval. Also raises a toast and a desktop notification when a hook of this workspace turns
 * `modified` on disk.
 */
export function HooksTabBadge({ workspaceId, name }: { workspaceId: string; name: string }) {
  const client = useApp((s) => s.client);
  const { data } = useHooksListing(workspaceId);
  useEffect(() => {
    if (!client) return;
    return client.on('hooksChanged', (p) => {
      if (p.workspaceId !== workspaceId || !p.becameModified?.length) return;
      const n = p.becameModified.length;
      const text = `${n} hook${n === 1 ? '' : 's'} in ${name} changed on disk and will not run until you approve ${n === 1 ? 'it' : 'them'} again.`;
      toast.warning(text);
      if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
        try {
          new Notification('Hook modified', { body: text });
        } catch {
          // notifications unavailable (e.g. an insecure origin): the toast is enough
        }
      }
    });
  }, [client, workspaceId, name]);
  const modified = data?.counts.modified ?? 0;
  if (modified > 0) {
    return (
      <span className="badge badge-error tab-badge" data-testid="hooks-tab-badge" title={`${modified} changed since approval`}>
        {modified} modified
      </span>
    );
  }
  const pending = data?.counts.unapproved ?? 0;
  return pending > 0 ? (
    <span className="badge tab-badge tab-badge-quiet" title={`${pending} need approval`}>
      {pending}
    </span>
  ) : null;
}
