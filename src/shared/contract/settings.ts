import { z } from 'zod';
import { defineEvents, defineRequests } from './define';

/**
 * Where "Open in editor" opens a path: `vscode` (Visual Studio Code), `cursor`, `zed`, or `system`
 * (macOS: the default text editor, `open -t`; Linux and Windows: the containing folder in the file
 * manager, because opening a file with its associated program could run it).
 */
export const EditorChoice = z.enum(['vscode', 'cursor', 'zed', 'system']);
export type EditorChoice = z.infer<typeof EditorChoice>;

/** Settings that apply to every surface of this data directory. `editor: null` = not chosen yet. */
export const AppSettings = z.object({ editor: EditorChoice.nullable() });
export type AppSettings = z.infer<typeof AppSettings>;

export const settingsRequests = defineRequests({
  'settings.get': {
    description: 'The app settings of this data directory (the editor "Open in editor" uses).',
    params: z.object({}),
    result: AppSettings,
  },
  'settings.set': {
    description: 'Changes app settings (only the fields given); answers with all of them.',
    params: z.object({ editor: EditorChoice.optional() }),
    result: AppSettings,
  },
  'editor.open': {
    description:
      'Opens an absolute path (a file, optionally at a 1-based line, or a folder) in the chosen editor: `code -g`, `cursor -g` or `zed` found on PATH (absolute PATH entries outside every workspace only), started without a shell with the path as one argument; or the system default (see EditorChoice). Never runs anything from the repository.',
    params: z.object({ path: z.string().min(1).max(4096), line: z.number().int().min(1).optional(), editor: EditorChoice.optional() }),
    result: z.object({ opened: z.literal(true), command: z.string() }),
  },
});

export const settingsEvents = defineEvents({
  settingsChanged: {
    description: 'App settings changed (from any surface).',
    payload: AppSettings,
  },
});
