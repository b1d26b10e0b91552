import { describe, expect, it, vi } from 'vitest';
import type { HookListing, TrustReview, TrustReviewItem } from '../../../src/shared/contract';
import { pendingApprovals, pendingPhrase } from '../../../src/renderer/src/features/workspaces/NeedsYou';
import { afterTrustingLine, reviewFacts } from '../../../src/renderer/src/features/trust/ReviewSummary';

// the renderer's store reads the address when its module loads; give it an empty one outside a browser
vi.hoisted(() => {
  (globalThis as { location?: unknown }).location ??= { hash: '' };
});

const item = (over: Partial<TrustReviewItem>): TrustReviewItem => ({ id: Math.random().toString(36), kind: 'hook', path: '.claude/settings.json', line: 1, name: 'x', summary: '', executable: true, tool: 'claude', warnings: [], uncovered: [], detail: {}, ...over });
const hook = (line: number, event: string, state: string, scope = 'project') => ({ id: `h${line}`, state, line, event, source: { scope, file: '.claude/settings.json' } });

describe('the counts the review summary and the Overview show', () => {
  it('reviewFacts: per kind, what runs code, and what needs approval matched item by item (user hooks are not the folder’s)', () => {
    const items = [
      item({ line: 3, detail: { event: 'Stop' } }),
      item({ line: 9, detail: { event: 'PreToolUse' } }),
      item({ kind: 'mcpServer', path: '.mcp.json', name: 'docs', line: 2 }),
      item({ kind: 'instruction', path: 'AGENTS.md', executable: false, warnings: [{ path: 'AGENTS.md', line: 1, message: 'm', fix: null }] }),
    ];
    const review = { items, warnings: [], executableCount: 3 } as unknown as TrustReview;
    const listing = {
      hooks: [hook(3, 'Stop', 'approved'), hook(9, 'PreToolUse', 'modified'), hook(9, 'PreToolUse', 'unapproved', 'user')],
      mcpServers: [{ id: 'm', name: 'docs', state: 'unapproved', source: { file: '.mcp.json' } }],
    } as unknown as HookListing;
    const groups: Array<[TrustReviewItem['kind'], TrustReviewItem[]]> = [
      ['hook', items.slice(0, 2)],
      ['mcpServer', [items[2]]],
      ['instruction', [items[3]]],
    ];
    const facts = reviewFacts(review, groups, listing);
    expect(facts.kinds).toEqual([
      { kind: 'hook', total: 2, executable: 2 },
      { kind: 'mcpServer', total: 1, executable: 1 },
      { kind: 'instruction', total: 1, executable: 0 },
    ]);
    expect(facts.needApproval).toEqual({ hooks: 1, servers: 1 });
    expect(facts.approved).toBe(1);
    expect(facts.warnings).toBe(1);
    expect(reviewFacts(review, groups, null).needApprovalKnown).toBe(false);
  });

  it('pendingApprovals / pendingPhrase: unapproved and modified, hooks and servers, worded with counts', () => {
    const listing = { hooks: [{ state: 'unapproved' }, { state: 'modified' }, { state: 'approved' }, { state: 'invalid' }], mcpServers: [{ state: 'unapproved' }] } as unknown as HookListing;
    const p = pendingApprovals(listing);
    expect(p).toEqual({ hooks: { unapproved: 1, modified: 1 }, servers: { unapproved: 1, modified: 0 } });
    expect(pendingPhrase(p)).toBe('2 hooks and 1 MCP server');
    expect(pendingPhrase({ hooks: { unapproved: 0, modified: 0 }, servers: { unapproved: 0, modified: 0 } })).toBeNull();
  });

  it('afterTrustingLine: a repository model endpoint stays withheld until approved in Agent settings, not "active once you trust"', () => {
    const traffic = item({ kind: 'env', name: 'env', executable: false, warnings: [{ path: '.claude/settings.json', line: 2, message: 'redirects model traffic: sets ANTHROPIC_BASE_URL, which would send…', fix: null }] });
    const review = { items: [traffic], warnings: [], executableCount: 0 } as unknown as TrustReview;
    const listing = { hooks: [], mcpServers: [] } as unknown as HookListing;
    const facts = reviewFacts(review, [['env', [traffic]]], listing);
    expect(facts.endpoints).toBe(1);
    expect(facts.kinds).toEqual([{ kind: 'env', total: 1, executable: 0 }]);
    expect(afterTrustingLine(facts, false)).toBe('No hook or MCP server to approve; 1 repository model endpoint stays withheld until approved in Agent settings; the other items are active once you trust.');
    const plain = reviewFacts({ items: [], warnings: [], executableCount: 0 } as unknown as TrustReview, [], listing);
    expect(afterTrustingLine(plain, false)).toBe('No hook or MCP server to approve; the other items are active once you trust.');
    expect(afterTrustingLine(plain, true)).toBe('No hook or MCP server to approve.');
  });
});
