import { describe, expect, it } from 'vitest';
import { LINK_WORKSPACE_TABS, parseDeepLink, routeHash } from '../../../src/main/deepLinkRoute';
import { formatRoute, parseRoute, WORKSPACE_TABS, type Route } from '../../../src/renderer/src/state/route';

const ID = '3f2b8c1e-7d4a-4c4e-9a51-0b6f1d2e3c4a';

describe('addresses (state/route.ts)', () => {
  it('round-trips every kind of place, with params', () => {
    const routes: Route[] = [
      { kind: 'home', params: {} },
      { kind: 'workspace', id: ID, tab: 'overview', params: {} },
      { kind: 'workspace', id: ID, tab: 'rules', params: { file: 'project:AGENTS.md', view: 'files' } },
      { kind: 'workspace', id: ID, tab: 'rules', params: { view: 'test', test: 'src/a b#c?.ts', from: 'pkg/x', agent: 'claude' } },
      { kind: 'workspace', id: ID, tab: 'hooks', params: { hook: 'h_47c5&x' } },
      { kind: 'sessions', params: {} },
      { kind: 'session', id: ID, params: { item: '1234' } },
      { kind: 'settings', section: null, params: {} },
      { kind: 'settings', section: 'editor', params: {} },
    ];
    for (const r of routes) expect(parseRoute(formatRoute(r))).toEqual(r);
    expect(formatRoute({ kind: 'workspace', id: ID, tab: 'overview', params: {} })).toBe(`#/workspace/${ID}`);
    expect(formatRoute({ kind: 'workspace', id: ID, tab: 'hooks', params: { hook: 'a b' } })).toBe(`#/workspace/${ID}/hooks?hook=a+b`);
  });

  it('the Trusted folders page and its Permissions granted section have addresses', () => {
    expect(parseRoute('#/trust')).toEqual({ kind: 'trust', tab: 'folders', params: {} });
    expect(parseRoute('#/trust/permissions')).toEqual({ kind: 'trust', tab: 'permissions', params: {} });
    expect(parseRoute('#/trust/elsewhere')).toEqual({ kind: 'trust', tab: 'folders', params: {} });
    expect(formatRoute({ kind: 'trust', tab: 'permissions', params: {} })).toBe('#/trust/permissions');
    expect(formatRoute({ kind: 'trust', tab: 'folders', params: {} })).toBe('#/trust');
    expect(parseRoute('#/workspace/w1/agent-settings')).toMatchObject({ kind: 'workspace', id: 'w1', tab: 'agent-settings' });
  });

  it('never carries the server token, and reads anything unknown or malformed as home or the nearest place', () => {
    expect(parseRoute('#token=abcdefghijklmnopqrstuvwxyz')).toEqual({ kind: 'home', params: {} });
    expect(parseRoute(`#/workspace/${ID}/rules?token=secret&file=x`)).toEqual({ kind: 'workspace', id: ID, tab: 'rules', params: { file: 'x' } });
    expect(parseRoute(`#/workspace/${ID}/nosuchtab`)).toEqual({ kind: 'workspace', id: ID, tab: 'overview', params: {} });
    expect(parseRoute('#/workspace/%E0%A4%A')).toEqual({ kind: 'home', params: {} });
    expect(parseRoute('#/nowhere')).toEqual({ kind: 'home', params: {} });
    expect(parseRoute('')).toEqual({ kind: 'home', params: {} });
  });

  it('atrium:// links land on the same addresses the renderer reads', () => {
    expect([...LINK_WORKSPACE_TABS]).toEqual([...WORKSPACE_TABS]);
    const cases: Array<[string, Route]> = [
      [`atrium://workspace/${ID}`, { kind: 'workspace', id: ID, tab: 'overview', params: {} }],
      [`atrium://workspace/${ID}/hooks`, { kind: 'workspace', id: ID, tab: 'hooks', params: {} }],
      [`atrium://session/${ID}?item=42`, { kind: 'session', id: ID, params: { item: '42' } }],
      ['atrium://sessions', { kind: 'sessions', params: {} }],
      ['atrium://settings/editor', { kind: 'settings', section: 'editor', params: {} }],
    ];
    for (const [raw, route] of cases) {
      const parsed = parseDeepLink(raw);
      if (!parsed.ok || parsed.link.kind === 'open') throw new Error(`${raw} did not parse`);
      expect(parseRoute(routeHash(parsed.link))).toEqual(route);
    }
  });
});
