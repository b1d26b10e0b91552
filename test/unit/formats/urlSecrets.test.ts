import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandServer } from '../../../src/main/core/formats/envExpand';
import { maskUrlSecrets } from '../../../src/main/core/formats/secrets';
import { readWorkspaceFile } from '../../../src/main/core/trust/review/readFile';
import { tempDir } from '../../support/tempDir';

/**
 * A remote MCP server's URL can carry a credential in its query (`?token=…`, Azure SAS `sig=…`) or
 * as `user:password@`; every surface that shows the URL masks those values and keeps the rest.
 */
describe('secret-looking URL query values are masked, the rest of the URL kept', () => {
  const URL = 'https://x.example.com/mcp?token=literalsecret&k=${MY_K:-dflt}';

  it('masks token/key/sig/password values and passwords, keeps other parameters and variable references', () => {
    expect(maskUrlSecrets(URL)).toBe('https://x.example.com/mcp?token=••••••&k=${MY_K:-dflt}');
    expect(maskUrlSecrets('https://u:pw@h.example/p?sig=abc%3D&api-key=zzz&key=&page=2#access_token=abc')).toBe('https://u:••••••@h.example/p?sig=••••••&api-key=••••••&key=&page=2#access_token=••••••');
    expect(maskUrlSecrets('${BASE}/mcp?password=hunter2&token=${T}')).toBe('${BASE}/mcp?password=••••••&token=${T}');
    expect(maskUrlSecrets('https://x.example/mcp?page=2')).toBe('https://x.example/mcp?page=2');
  });

  it('the expansion shows the expanded URL with its query masked, not dropped', () => {
    const x = expandServer({ command: null, args: [], url: URL, env: {}, headers: {} }, 'claude-code', { env: {}, workspaceFolder: '/w', userHome: '/h', pluginRoot: null });
    expect(x.url).toBe('https://x.example.com/mcp?token=literalsecret&k=dflt');
    expect(x.masked.url).toBe('https://x.example.com/mcp?token=••••••&k=dflt');
  });

  it('the trust review raw file view masks a URL query token, keeping line numbers', async () => {
    const dir = tempDir('atrium-urlsecret-');
    fs.writeFileSync(path.join(dir, '.mcp.json'), `{\n  "mcpServers": {\n    "q": { "type": "http", "url": ${JSON.stringify(URL)} }\n  }\n}\n`);
    const file = await readWorkspaceFile(dir, '.mcp.json');
    expect(file.content).not.toContain('literalsecret');
    expect(file.content.split('\n')[2]).toContain('"url": "https://x.example.com/mcp?token=••••••&k=${MY_K:-dflt}"');
  });
});
