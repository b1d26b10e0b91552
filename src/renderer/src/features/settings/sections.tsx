import type { ComponentType } from 'react';
import { ProvidersSection } from '../providers/ProvidersSection';
import '../providers/providers.css';
import { EditorSection } from './EditorSection';

/** One section of the Settings page: its address (`#/settings/<id>`), its heading and its body. */
export interface SettingsSection {
  id: string;
  title: string;
  /** One line under the heading in the section list. */
  summary: string;
  Body: ComponentType;
}

/** The Settings page's sections, in order. Adding one is one line here (plus its component). */
export const SETTINGS_SECTIONS: SettingsSection[] = [
  { id: 'editor', title: 'Editor', summary: 'Where "Open in editor" opens files and folders', Body: EditorSection },
  { id: 'providers', title: 'Providers and keys', summary: 'Model endpoints agents talk to, and the keys they use', Body: ProvidersSection },
];
