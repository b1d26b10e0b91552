import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { duplicateKeys } from '../../../src/main/core/formats/json/textChecks';
import { decodeUtf8 } from '../../../src/main/core/formats/unicode';
import { hookWorld } from './helpers';

describe('invalid UTF-8 and repeated JSON keys in hook and MCP files', () => {
  it('a repeated "command" key: the hook runs the last value (as the agent would) and a warning names both lines', async () => {
    const w = hookWorld();
    w.write({
      '.claude/settings.json': `{
  "hooks": {
    "Stop": [
      { "hooks": [
        { "type": "command",
          "command": "echo harmless",
          "command": "touch ran-the-last-one" }
      ] }
    ]
  }
}`,
    });
    const listing = await w.list();
    expect(listing.hooks.map((h) => h.command)).toEqual(['touch ran-the-last-one']);
    expect(listing.warnings).toContainEqual({
      path: '.claude/settings.json',
      line: 7,
      message: 'repeats the key "command" in hooks.Stop[0].hooks[0] (first at line 6): agents use the last value (line 7), not the one an editor or reviewer sees first',
      fix: 'Keep one "command" and delete the other.',
    });
    const h = listing.hooks[0];
    await w.engine.hooks.approve({ path: w.project }, [{ id: h.id, digest: h.digest }]);
    await w.engine.hooks.run('Stop', {}, { path: w.project });
    expect(fs.existsSync(path.join(w.project, 'ran-the-last-one'))).toBe(true);
  });

  it('.mcp.json: a repeated server name and invalid UTF-8 each get a warning with file and line; the servers are still read', async () => {
    const w = hookWorld();
    const text = `{
  "mcpServers": {
    "docs": { "command": "node", "args": ["docs.js"] },
    "docs": { "command": "node", "args": ["other.js"], "env": { "NAME": "caf\u00e9-\u0001" } }
  }
}`;
    // \u0001 stands for a stray Latin-1 byte: replace it with 0xFF on disk
    const bytes = Buffer.from(text, 'utf8');
    bytes[bytes.indexOf(0x01)] = 0xff;
    fs.writeFileSync(path.join(w.project, '.mcp.json'), bytes);
    const listing = await w.list();
    expect(listing.mcpServers).toHaveLength(1);
    expect(listing.mcpServers[0]).toMatchObject({ name: 'docs', args: ['other.js'], env: { NAME: 'café-\uFFFD' } });
    const shown = listing.warnings.filter((x) => x.path === '.mcp.json');
    expect(shown).toHaveLength(2);
    expect(shown[0]).toMatchObject({ line: 4, fix: 'Save the file as UTF-8 (or remove the stray bytes).' });
    expect(shown[0].message).toMatch(/^is not valid UTF-8 \(line 4 is the first/);
    expect(shown[1]).toMatchObject({ line: 4, message: expect.stringContaining('repeats the key "docs" in mcpServers (first at line 3)') });
  });

  it('plugin hooks.json, Gemini JSONC and settings.json: each warned once, with its own line', async () => {
    const w = hookWorld();
    w.write({
      '.gemini/settings.json': '{\n  // comments are fine here\n  "hooks": { "BeforeTool": [ { "hooks": [ { "type": "command", "command": "echo a" } ] } ] },\n  "hooks": { "AfterTool": [ { "hooks": [ { "type": "command", "command": "echo gemini-last" } ] } ] },\n}\n',
      '.claude/settings.json': { mcpServers: {} },
      'plugins/p/.claude-plugin/plugin.json': { name: 'p' },
    });
    const plugin = path.join(w.project, 'plugins/p/hooks/hooks.json');
    fs.mkdirSync(path.dirname(plugin), { recursive: true });
    fs.writeFileSync(plugin, Buffer.concat([Buffer.from('{ "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "echo plugin'), Buffer.from([0xc3, 0x28]), Buffer.from('" } ] } ] } }')]));
    const listing = await w.list();
    expect(listing.hooks.map((h) => h.command).sort()).toEqual(['echo gemini-last', 'echo plugin\uFFFD(']);
    const byFile = (f: string) => listing.warnings.filter((x) => x.path === f);
    expect(byFile('.gemini/settings.json')).toEqual([expect.objectContaining({ line: 4, message: expect.stringContaining('repeats the key "hooks" (first at line 3)') })]);
    expect(byFile('plugins/p/hooks/hooks.json')).toEqual([expect.objectContaining({ line: 1, message: expect.stringMatching(/^is not valid UTF-8/) })]);
    expect(byFile('.claude/settings.json')).toEqual([]);
  });

  it('formats: decodeUtf8 tells a real U+FFFD from an invalid byte; duplicateKeys reports each repeat against the first', () => {
    expect(decodeUtf8(Buffer.from('{"a":"\uFFFD"}\n', 'utf8'))).toEqual({ text: '{"a":"\uFFFD"}\n', invalidLine: null });
    expect(decodeUtf8(Buffer.from([0x7b, 0x0a, 0x0a, 0xe2, 0x82, 0x0a]))).toMatchObject({ invalidLine: 3 });
    expect(decodeUtf8(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])).text).toBe('\uFEFF{}');
    expect(duplicateKeys('{"a":1,"b":{"a":2,"a":3},"a":4,"a":5}')).toEqual([
      { key: 'a', line: 1, firstLine: 1, path: 'b' },
      { key: 'a', line: 1, firstLine: 1, path: '' },
      { key: 'a', line: 1, firstLine: 1, path: '' },
    ]);
    expect(duplicateKeys('[{"x":1},{"x":2}]')).toEqual([]);
  });
});
