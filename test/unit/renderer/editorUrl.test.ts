import { describe, expect, it } from 'vitest';
import { editorUrl } from '../../../src/renderer/src/components/editorUrl';

describe('editor links', () => {
  it('writes the link each editor registers, with the line, and encodes what would end the path', () => {
    expect(editorUrl('vscode', '/home/me/src/app/AGENTS.md', 3)).toBe('vscode://file/home/me/src/app/AGENTS.md:3');
    expect(editorUrl('cursor', '/home/me/a b/x.md')).toBe('cursor://file/home/me/a%20b/x.md');
    expect(editorUrl('zed', '/srv/#notes?.md', 1)).toBe('zed://file/srv/%23notes%3F.md:1');
    expect(editorUrl('vscode', 'C:\\Users\\me\\x.md')).toBe('vscode://file/C:/Users/me/x.md');
    expect(editorUrl('system', '/x')).toBeNull();
  });
});
