import type { EditorChoice } from '../../../shared/contract';

/** Names of the editor choices, as Settings and the buttons say them. */
export const EDITOR_NAMES: Record<EditorChoice, string> = { vscode: 'VS Code', cursor: 'Cursor', zed: 'Zed', system: 'System default' };

/**
 * The link an editor registers with the OS for opening a file (`vscode://file/<path>:<line>`,
 * `cursor://file/…`, `zed://file/…`), or null for `system`. Each path segment is percent-encoded
 * (a `#` or `?` in a file name must not end the path), except a Windows drive (`C:`), which editors read as written.
 */
export function editorUrl(editor: EditorChoice, absolutePath: string, line?: number): string | null {
  if (editor === 'system') return null;
  const p = absolutePath.replace(/\\/g, '/');
  const encoded = (p.startsWith('/') ? '' : '/') + p.split('/').map((seg, i) => (i === 0 && /^[A-Za-z]:$/.test(seg) ? seg : encodeURIComponent(seg))).join('/');
  return `${editor}://file${encoded}${line ? `:${line}` : ''}`;
}

