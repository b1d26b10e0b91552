import { describe, expect, it } from 'vitest';
import { deepLinkFromArgv, MAX_DEEP_LINK_LENGTH, parseDeepLink, routeHash } from '../../../src/main/deepLinkRoute';

const ID = '3f2b8c1e-7d4a-4c4e-9a51-0b6f1d2e3c4a';
const link = (raw: unknown) => {
  const parsed = parseDeepLink(raw);
  return parsed.ok ? parsed.link : null;
};
const reason = (raw: unknown) => {
  const parsed = parseDeepLink(raw);
  return parsed.ok ? null : parsed.reason;
};

describe('atrium:// links → app routes', () => {
  it('maps the four kinds of address, tolerating one trailing slash and any case in scheme and host', () => {
    expect(link(`atrium://workspace/${ID}`)).toEqual({ kind: 'workspace', id: ID });
    expect(link(`atrium://session/${ID}/`)).toEqual({ kind: 'session', id: ID });
    expect(link('atrium://sessions')).toEqual({ kind: 'sessions' });
    expect(link('ATRIUM://Sessions/')).toEqual({ kind: 'sessions' });
    expect(link('atrium://open?path=%2Fhome%2Fme%2Fproject')).toEqual({ kind: 'open', path: '/home/me/project' });
    expect(link('atrium://open/?path=/srv/a%20b')).toEqual({ kind: 'open', path: '/srv/a b' });
  });

  it('gives each route the hash the renderer reads', () => {
    expect(routeHash({ kind: 'workspace', id: ID })).toBe(`#/workspace/${ID}`);
    expect(routeHash({ kind: 'session', id: ID })).toBe(`#/sessions/${ID}`);
    expect(routeHash({ kind: 'sessions' })).toBe('#/sessions');
    expect(link(`atrium://workspace/${ID}/rules`)).toEqual({ kind: 'workspace', id: ID, tab: 'rules' });
    expect(link(`atrium://session/${ID}?item=7`)).toEqual({ kind: 'session', id: ID, item: 7 });
    expect(link('atrium://settings/editor')).toEqual({ kind: 'settings', section: 'editor' });
    expect(routeHash({ kind: 'workspace', id: ID, tab: 'hooks' })).toBe(`#/workspace/${ID}/hooks`);
    expect(routeHash({ kind: 'session', id: ID, item: 7 })).toBe(`#/sessions/${ID}?item=7`);
    expect(routeHash({ kind: 'settings' })).toBe('#/settings');
  });

  it('refuses unknown hosts, other schemes and non-strings with a reason', () => {
    expect(reason('atrium://preferences')).toMatch(/unknown host "preferences"/);
    expect(reason('atrium://evil.example/workspace/x')).toMatch(/not of the form/);
    expect(reason(`https://workspace/${ID}`)).toMatch(/not of the form/);
    expect(reason(`atrium:workspace/${ID}`)).toMatch(/not of the form/);
    expect(reason('javascript:alert(1)')).toMatch(/not of the form/);
    expect(reason(42)).toBe('not a string');
    expect(reason(undefined)).toBe('not a string');
    expect(reason('')).toMatch(/not of the form/);
  });

  it('refuses traversal and encoded tricks in ids', () => {
    for (const raw of [
      'atrium://workspace/..',
      'atrium://workspace/%2e%2e',
      'atrium://workspace/%2E%2E%2Fsettings',
      `atrium://workspace/a%2f${ID}`,
      'atrium://workspace/.',
      `atrium://session/${ID}/../../x`,
      `atrium://session/%${ID}`,
      'atrium://session/%E0%A4%A',
      `atrium://session/<script>`,
      `atrium://session/${'a'.repeat(129)}`,
      `atrium://session/-${ID}`,
    ]) {
      expect(parseDeepLink(raw).ok, raw).toBe(false);
    }
    expect(reason('atrium://session/%E0%A4%A')).toBe('bad percent-encoding in the path');
  });

  it('refuses malformed shapes: fragment, user, port, extra or empty segments, queries where none belong, whitespace, backslashes', () => {
    for (const raw of [
      `atrium://workspace/${ID}#/settings`,
      `atrium://me@workspace/${ID}`,
      `atrium://workspace:80/${ID}`,
      `atrium://workspace/${ID}/trust/more`,
      `atrium://workspace/${ID}/nosuchtab`,
      `atrium://session/${ID}?item=0`,
      `atrium://session/${ID}?item=1&x=2`,
      'atrium://settings/a/b',
      `atrium://workspace//${ID}`,
      'atrium://workspace/',
      'atrium://workspace',
      `atrium://workspace/${ID}?x=1`,
      'atrium://sessions/extra',
      'atrium://sessions?x',
      `atrium://workspace/${ID}\\..`,
      `atrium://workspace/${ID} `,
      ` atrium://workspace/${ID}`,
      `atrium://workspace/${ID}\n`,
      `atrium://workspace/${ID}\u0000`,
    ]) {
      expect(parseDeepLink(raw).ok, JSON.stringify(raw)).toBe(false);
    }
  });

  it('open takes exactly one absolute, clean folder path and nothing else', () => {
    expect(reason('atrium://open')).toMatch(/exactly one parameter, path/);
    expect(reason('atrium://open?path=')).toMatch(/needs a folder/);
    expect(reason('atrium://open?path=relative/dir')).toMatch(/not absolute/);
    expect(reason('atrium://open?path=/a/../etc')).toMatch(/\. or \.\. segment/);
    expect(reason('atrium://open?path=%2Fa%2F%2E%2E%2Fetc')).toMatch(/\. or \.\. segment/);
    expect(reason('atrium://open?path=/a/./b')).toMatch(/\. or \.\. segment/);
    expect(reason('atrium://open?path=/a&path=/b')).toMatch(/exactly one parameter/);
    expect(reason('atrium://open?path=/a&trust=1')).toMatch(/exactly one parameter/);
    expect(reason('atrium://open?path=/a%0Ab')).toMatch(/control character/);
    expect(reason('atrium://open?path=/a%00b')).toMatch(/control character/);
    expect(reason('atrium://open?path=%E0%A4%A')).toBe('bad percent-encoding in the query');
    expect(reason(`atrium://open?path=/${'a'.repeat(1100)}`)).toMatch(/longer than 1024/);
    expect(reason('atrium://open/extra?path=/a')).toMatch(/open takes no path/);
  });

  it('refuses an over-long address before reading it', () => {
    const long = `atrium://open?path=/${'a'.repeat(MAX_DEEP_LINK_LENGTH)}`;
    expect(reason(long)).toBe(`longer than ${MAX_DEEP_LINK_LENGTH} characters`);
    expect(reason(`atrium://workspace/${'a'.repeat(MAX_DEEP_LINK_LENGTH)}`)).toMatch(/longer than/);
  });

  it('finds the link among command-line arguments (first launch and second-instance on Windows and Linux)', () => {
    expect(deepLinkFromArgv(['/opt/Atrium/atrium', '--no-sandbox', `atrium://session/${ID}`])).toBe(`atrium://session/${ID}`);
    expect(deepLinkFromArgv(['electron', '.', '--data-dir=/tmp/x', 'ATRIUM://sessions', 'atrium://workspace/x'])).toBe('ATRIUM://sessions');
    expect(deepLinkFromArgv(['electron', '.', '--url=atrium://sessions', 'atriumx://sessions'])).toBeNull();
    expect(deepLinkFromArgv([])).toBeNull();
  });
});
