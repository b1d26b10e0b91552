import { useId, useState } from 'react';
import type { EditorChoice } from '../../../../shared/contract';
import { errorToast } from '../../components/errorToast';
import { EDITOR_NAMES } from '../../components/OpenInEditor';
import { useApp } from '../../state/appStore';

const CHOICES: Array<{ value: EditorChoice; how: (desktop: boolean) => string }> = [
  { value: 'vscode', how: (d) => (d ? 'Starts `code -g <file>:<line>`.' : 'Opens a vscode://file/ link, which VS Code handles.') },
  { value: 'cursor', how: (d) => (d ? 'Starts `cursor -g <file>:<line>`.' : 'Opens a cursor://file/ link, which Cursor handles.') },
  { value: 'zed', how: (d) => (d ? 'Starts `zed <file>:<line>`.' : 'Opens a zed://file/ link, which Zed handles.') },
  {
    value: 'system',
    how: () => 'macOS: your default text editor. Linux and Windows: the containing folder in the file manager (opening a file with its associated program could run it).',
  },
];

/**
 * Settings → Editor: which editor "Open in editor" uses, for every surface of this data directory.
 * Atrium starts an editor without a shell, with the path as one argument, and only from a
 * directory on PATH outside every workspace, so opening a file never runs repository code.
 */
export function EditorSection() {
  const client = useApp((s) => s.client);
  const desktop = useApp((s) => s.client?.desktop ?? false);
  const current = useApp((s) => s.settings?.editor ?? null);
  const [busy, setBusy] = useState(false);
  const name = useId();
  const choose = (editor: EditorChoice) => {
    if (!client) return;
    // shown at once (a radio must follow the click); put back if the engine refuses
    const before = useApp.getState().settings;
    useApp.setState({ settings: { ...(before ?? { editor: null }), editor } });
    setBusy(true);
    client
      .request('settings.set', { editor })
      .then((settings) => useApp.setState({ settings }))
      .catch((e: Error) => {
        useApp.setState({ settings: before });
        errorToast(`Could not change the editor: ${e.message}`);
      })
      .finally(() => setBusy(false));
  };
  return (
    <div className="settings-editor">
      <p className="hint">
        Every path Atrium shows (rule files, hook scripts, diff paths, a session&apos;s worktree) has an “Open in editor” button. {current === null && 'Until you choose, it uses the system default.'}
      </p>
      <fieldset className="settings-choices" disabled={busy}>
        <legend className="sr-only">Editor</legend>
        {CHOICES.map((c) => (
          <label key={c.value} className={`settings-choice${(current ?? 'system') === c.value ? ' selected' : ''}`}>
            <input type="radio" name={name} value={c.value} checked={(current ?? 'system') === c.value} onChange={() => choose(c.value)} />
            <span className="settings-choice-name">{EDITOR_NAMES[c.value]}</span>
            <span className="muted settings-choice-how">{c.how(desktop)}</span>
          </label>
        ))}
      </fieldset>
      {!desktop && (
        <p className="hint">
          In a browser tab, VS Code, Cursor and Zed open through their links on the computer that runs the browser; the browser may ask once whether to allow it.
        </p>
      )}
    </div>
  );
}
