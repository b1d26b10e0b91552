import { ShieldAlert, ShieldCheck, ShieldOff } from 'lucide-react';
import type { WorkspaceTrust } from '../../../../shared/contract';

const LABEL = { trusted: 'Trusted', untrusted: 'Untrusted', undecided: 'Restricted' } as const;
const TITLE = {
  trusted: 'Trusted: project instructions, hooks and servers may be activated.',
  untrusted: 'Untrusted: restricted mode; only your user-level settings are active.',
  undecided: 'Not decided yet: restricted mode until you review and trust this folder.',
} as const;

/**
 * A compact trust state marker for lists; `compact` shows the icon only. `sharesTrust` (see
 * `sharesTrustText`) is appended to the tooltip for a linked worktree.
 */
export function TrustBadge({ trust, compact = false, sharesTrust = null }: { trust: WorkspaceTrust; compact?: boolean; sharesTrust?: string | null }) {
  const Icon = trust.state === 'trusted' ? ShieldCheck : trust.state === 'untrusted' ? ShieldOff : ShieldAlert;
  const inherited = trust.inherited && trust.decidedBy ? ` (inherited from ${trust.decidedBy})` : '';
  const shared = sharesTrust ? ` This folder ${sharesTrust}.` : '';
  return (
    <span className={`trust-badge trust-${trust.state}`} title={TITLE[trust.state] + inherited + shared} data-trust-state={trust.state}>
      <Icon size={13} aria-hidden />
      {compact ? <span className="sr-only">{LABEL[trust.state]}</span> : LABEL[trust.state]}
    </span>
  );
}
