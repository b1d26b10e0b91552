import { ShieldCheck } from 'lucide-react';
import { useApp } from '../../state/appStore';

/** The sidebar's "Trusted folders" entry (below Sessions): opens the global trust page (`#/trust`). */
export function SidebarTrustEntry() {
  const active = useApp((s) => s.view === 'trust');
  const showTrust = useApp((s) => s.showTrust);
  return (
    <div className="sess-sidebar-entry">
      <button className={`workspace-item${active ? ' selected' : ''}`} aria-current={active ? 'page' : undefined} onClick={() => showTrust()}>
        <ShieldCheck size={15} aria-hidden />
        <span className="workspace-name">Trusted folders</span>
      </button>
    </div>
  );
}
