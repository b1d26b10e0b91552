import { EditorChoice, type AppSettings } from '../../../shared/contract';
import type { Engine } from '../engine';
import type { Handlers } from '../handlers';
import { editorCommand, launchEditor } from '../process/launchEditor';
import { parseJsonColumn } from '../store/jsonColumn';

/** The `settings.*` and `editor.*` requests of the contract (`src/shared/contract/settings.ts`). */
export type SettingsHandlers = Pick<Handlers, 'settings.get' | 'settings.set' | 'editor.open'>;

const EDITOR_KEY = 'ui.editor';

/**
 * App settings in the `app_settings` table (key → JSON), one key per setting; an unreadable or
 * unknown stored value reads as unset. `editor.open` launches the chosen editor (or the one passed)
 * through `process/launchEditor.ts`, with every listed workspace folder excluded from the PATH
 * search.
 */
export function createSettingsHandlers(engine: Engine): SettingsHandlers {
  const db = engine.store.db;
  const read = (): AppSettings => {
    const row = db.prepare('SELECT value_json FROM app_settings WHERE key = ?').get(EDITOR_KEY) as { value_json: string } | undefined;
    const parsed = EditorChoice.safeParse(row ? parseJsonColumn<unknown>(row.value_json, null) : null);
    return { editor: parsed.success ? parsed.data : null };
  };
  return {
    'settings.get': () => read(),
    'settings.set': ({ editor }) => {
      if (editor !== undefined) {
        db.prepare('INSERT INTO app_settings (key, value_json, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at').run(EDITOR_KEY, JSON.stringify(editor), new Date().toISOString());
      }
      const settings = read();
      engine.bus.emit('settingsChanged', settings);
      return settings;
    },
    'editor.open': async ({ path, line, editor }) => {
      const choice = editor ?? read().editor ?? 'system';
      const workspaceDirs = engine.workspaces.list().map((w) => w.path);
      const command = editorCommand(choice, path, line, { path: process.env.PATH, workspaceDirs });
      await launchEditor(command);
      return { opened: true as const, command: [command.file, ...command.args].join(' ') };
    },
  };
}
