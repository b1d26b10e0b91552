import { useEffect, useRef } from 'react';
import { shortcut } from '../../components/format';
import { useApp } from '../../state/appStore';
import { SETTINGS_SECTIONS } from './sections';
import './settings.css';

/**
 * The Settings page (`#/settings`, `#/settings/<section>`; Ctrl/⌘+, or the sidebar): one column of
 * sections from {@link SETTINGS_SECTIONS}, with a section list to jump between them. A section in
 * the address is scrolled to and focused.
 */
export function SettingsView() {
  const section = useApp((s) => (s.route.kind === 'settings' ? s.route.section : null));
  const showSettings = useApp((s) => s.showSettings);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const target = section ? document.getElementById(`settings-${section}`) : heading.current;
    target?.scrollIntoView({ block: 'start' });
    target?.focus({ preventScroll: true });
  }, [section]);
  return (
    <section className="settings-view" aria-labelledby="settings-title">
      <header className="workspace-header">
        <h1 id="settings-title" ref={heading} tabIndex={-1}>
          Settings
        </h1>
        <span className="muted">Shortcut: <kbd>{shortcut(',')}</kbd></span>
      </header>
      <div className="settings-body">
        <nav className="settings-nav" aria-label="Settings sections">
          {SETTINGS_SECTIONS.map((s) => (
            <a key={s.id} href={`#/settings/${s.id}`} aria-current={section === s.id ? 'location' : undefined} onClick={(e) => (e.preventDefault(), showSettings(s.id))}>
              {s.title}
            </a>
          ))}
        </nav>
        <div className="settings-sections">
          {SETTINGS_SECTIONS.map(({ id, title, summary, Body }) => (
            <section key={id} id={`settings-${id}`} className="settings-section" aria-labelledby={`settings-${id}-title`} tabIndex={-1}>
              <h2 id={`settings-${id}-title`}>{title}</h2>
              <p className="muted settings-summary">{summary}</p>
              <Body />
            </section>
          ))}
        </div>
      </div>
    </section>
  );
}
