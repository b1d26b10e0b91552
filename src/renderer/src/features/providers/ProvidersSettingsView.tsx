import { ProvidersSection } from './ProvidersSection';
import './providers.css';

/** The Settings page (`#/settings`): Providers and keys. */
export function ProvidersSettingsView() {
  return (
    <section className="prov-view" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <ProvidersSection />
    </section>
  );
}
