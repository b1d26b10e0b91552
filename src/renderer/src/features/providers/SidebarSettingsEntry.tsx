import { Settings } from 'lucide-react';
import { useApp } from '../../state/appStore';

/** The sidebar's "Settings" entry (providers and keys). */
export function SidebarSettingsEntry() {
  const view = useApp((s) => s.view);
  const showSettings = useApp((s) => s.showSettings);
  const active = view === 'settings';
  return (
    <div className="sess-sidebar-entry">
      <button className={`workspace-item${active ? ' selected' : ''}`} aria-current={active ? 'page' : undefined} onClick={showSettings}>
        <Settings size={15} />
        <span className="workspace-name">Settings</span>
      </button>
    </div>
  );
}
