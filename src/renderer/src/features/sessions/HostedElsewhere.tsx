import { MonitorSmartphone, TerminalSquare } from 'lucide-react';
import type { Session } from '../../../../shared/contract';

type Host = NonNullable<Session['hostedElsewhere']>;

/** What the host is, for "use that …": a terminal, an editor (`atrium acp`), or a window (serve's browser UI, the desktop app). */
export function hostPlace(host: Host): 'terminal' | 'editor' | 'window' {
  return host.kind === 'cli' ? 'terminal' : host.kind === 'acp' ? 'editor' : 'window';
}

/** Short label beside a session's state in lists: "in a terminal", "in atrium serve", "in the desktop app". */
export function hostLabel(host: Host): string {
  return host.kind === 'cli' ? 'in a terminal' : host.kind === 'acp' ? 'in an editor (atrium acp)' : host.kind === 'serve' ? 'in atrium serve' : 'in the desktop app';
}

/**
 * Why a control that writes to the session (send, Stop, Resume, Close, a permission answer, a mode)
 * is disabled here, or null when this window may drive the session. Used as the control's tooltip.
 */
export function hostedReason(session: Pick<Session, 'hostedElsewhere'>): string | null {
  const host = session.hostedElsewhere;
  if (!host) return null;
  return `Runs in ${host.description}. To prompt, stop or answer it, use that ${hostPlace(host)} — or wait until it ends.`;
}

/**
 * The calm notice under the header of a session another Atrium process runs: what is shown here
 * (the saved session, following it as it is written) and where to drive it.
 */
export function HostedElsewhereBanner({ session }: { session: Pick<Session, 'hostedElsewhere'> }) {
  const host = session.hostedElsewhere;
  if (!host) return null;
  const Icon = host.kind === 'cli' ? TerminalSquare : MonitorSmartphone;
  return (
    <div className="sess-banner sess-banner-info sess-banner-hosted" role="status" data-host-kind={host.kind} data-host-pid={host.pid}>
      <Icon size={14} aria-hidden />
      <span>
        Runs in {host.description}. Shown here as it is saved; to prompt, stop or answer it, use that {hostPlace(host)} — or wait until it ends.
      </span>
    </div>
  );
}
