import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { McpServerInfo } from '../../../src/shared/contract';
import { McpServerDetail } from '../../../src/renderer/src/features/extensions/sections';

/**
 * The Extensions tab's digest of an MCP server hashes the definition alone; the Hooks tab's approval
 * digest also covers the files the command runs (`hooks/listing.ts` `mcpEntryOf`), so the two differ
 * for a server that runs a workspace script. The Extensions one is labelled as the definition digest.
 */
describe('Extensions tab: MCP server detail', () => {
  it('labels its digest as the definition digest and points to the Hooks tab for the approval digest', () => {
    const server = {
      id: 's', name: 's', transport: 'stdio', command: 'node', args: ['server.js'], url: null, cwd: null, envNames: [], headerNames: [], variables: [], env: {}, headers: {},
      source: 'project', plugin: null, path: '.mcp.json', line: 1, digest: 'sha256:c302', approvalId: 'mcp:s', status: 'active', overriddenBy: null, warnings: [], local: false,
    } as unknown as McpServerInfo;
    const html = renderToStaticMarkup(createElement(McpServerDetail, { server }));
    expect(html).toContain('Definition digest');
    expect(html).toContain('approval digest: Hooks tab');
    expect(html).not.toMatch(/<dt>Digest<\/dt>/);
  });
});
