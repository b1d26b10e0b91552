import { describe, expect, it } from 'vitest';
import { inactiveSummary } from '../../../src/renderer/src/features/trust/RestrictedBanner';

describe('the restricted-mode banner names what is inactive', () => {
  it('adds up to the trust review item count, leaves out kinds with none, and agrees in number', () => {
    expect(inactiveSummary(6, 1, 2, 2)).toBe('1 instruction file, 2 hooks, 2 MCP servers and 1 other item are inactive.');
    expect(inactiveSummary(5, 1, 2, 2)).toBe('1 instruction file, 2 hooks and 2 MCP servers are inactive.');
    expect(inactiveSummary(3, 0, 0, 0)).toBe('3 items are inactive.');
    expect(inactiveSummary(1, 1, 0, 0)).toBe('1 instruction file is inactive.');
    expect(inactiveSummary(4, 0, 1, 0)).toBe('1 hook and 3 other items are inactive.');
  });
});
