import { SquareArrowOutUpRight } from 'lucide-react';
import { toast } from 'sonner';
import { useApp } from '../state/appStore';
import { EDITOR_NAMES, editorUrl } from './editorUrl';
import { errorToast } from './errorToast';

export { EDITOR_NAMES };

/**
 * "Open in editor" for one absolute path (a file, optionally at a line, or a folder), with the
 * editor chosen in Settings (System default until one is chosen). In a browser tab VS Code, Cursor
 * and Zed open through their `…://file/` links (handled by the browser's machine, i.e. the editor
 * beside the browser); the desktop app, and the system default everywhere, ask Atrium to start the
 * editor (`editor.open`: no shell, the path as one argument).
 */
export function OpenInEditor({ path, line, label, compact = false }: { path: string; line?: number; label?: string; compact?: boolean }) {
  const client = useApp((s) => s.client);
  const editor = useApp((s) => s.settings?.editor ?? 'system');
  const name = EDITOR_NAMES[editor];
  const text = label ?? `Open in ${name}`;
  const title = `Open ${path}${line ? ` at line ${line}` : ''} in ${name} (choose the editor in Settings)`;
  const url = client && !client.desktop ? editorUrl(editor, path, line) : null;
  const content = (
    <>
      <SquareArrowOutUpRight size={12} aria-hidden /> {compact ? <span className="sr-only">{text}</span> : text}
    </>
  );
  if (url) {
    // an editor link, not a web page: the stray-link confirmation (links/LinkDialog) is for web addresses
    return (
      <a className="link-button open-in-editor" href={url} title={title} data-editor={editor} onClick={(e) => e.stopPropagation()} aria-label={compact ? text : undefined}>
        {content}
      </a>
    );
  }
  const open = () => {
    client
      ?.request('editor.open', { path, line })
      .then(() => toast(`Opened in ${name}`))
      .catch((e: Error) => errorToast(e.message));
  };
  return (
    <button type="button" className="link-button open-in-editor" title={title} data-editor={editor} onClick={open} aria-label={compact ? text : undefined}>
      {content}
    </button>
  );
}
