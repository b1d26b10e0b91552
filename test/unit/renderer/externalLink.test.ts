import { describe, expect, it } from 'vitest';
import { classifyLink, isOpenableUrl, restoreIpv6Brackets } from '../../../src/shared/externalLink';

describe('classifyLink', () => {
  it('passes an https link on a host name without warnings', () => {
    expect(classifyLink('https://docs.example.com/guide?q=1#top')).toEqual({
      kind: 'web',
      raw: 'https://docs.example.com/guide?q=1#top',
      href: 'https://docs.example.com/guide?q=1#top',
      scheme: 'https',
      host: 'docs.example.com',
      hostKind: 'name',
      warnings: [],
      openable: true,
    });
  });

  it('warns about plain http', () => {
    expect(classifyLink('http://example.com/').warnings).toEqual(['insecure']);
  });

  it.each([
    ['http://127.0.0.1:8080/x', '127.0.0.1'],
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['https://0xC0A80001/admin', '192.168.0.1'],
  ])('recognises the IPv4 host of %s in any numeric spelling (%s)', (raw, host) => {
    const link = classifyLink(raw);
    expect(link.hostKind).toBe('ipv4');
    expect(link.host).toBe(host);
    expect(link.warnings).toContain('ip-address');
    expect(link.openable).toBe(true);
  });

  it.each([
    ['https://[::1]:8443/', '[::1]'],
    ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]'],
    ['https://[2001:DB8::1]/', '[2001:db8::1]'],
  ])('recognises the IPv6 host of %s', (raw, host) => {
    const link = classifyLink(raw);
    expect(link.hostKind).toBe('ipv6');
    expect(link.host).toBe(host);
    expect(link.warnings).toEqual(expect.arrayContaining(['ip-address']));
  });

  it.each([
    ['http://%5B::ffff:127.0.0.1%5D/', '[::ffff:7f00:1]', 'http://[::ffff:7f00:1]/'],
    ['https://%5b::1%5d:8443/x?y#z', '[::1]', 'https://[::1]:8443/x?y#z'],
    ['https://user@%5B2001:db8::1%5D', '[2001:db8::1]', 'https://user@[2001:db8::1]/'],
  ])('reads the IPv6 host of %s whose brackets Markdown percent-encoded', (raw, host, href) => {
    const link = classifyLink(raw);
    expect(link).toMatchObject({ kind: 'web', raw, href, host, hostKind: 'ipv6', openable: true });
    expect(link.warnings).toContain('ip-address');
  });

  it('puts back only the brackets of an IPv6 host: never a scheme, a path or anything that is not an address', () => {
    expect(restoreIpv6Brackets('http://%5B::1%5D/a%5Bb%5D')).toBe('http://[::1]/a%5Bb%5D');
    for (const unchanged of ['http://example.com/%5B::1%5D', 'http://%5Bexample.com%5D/', 'javascript:%5B::1%5D', 'file:///%5B::1%5D', '%5B::1%5D', 'http://%5B::1%5Dx/']) {
      expect(restoreIpv6Brackets(unchanged)).toBe(unchanged);
    }
    // the scheme decides, brackets or not: a restored host on a blocked scheme stays blocked
    expect(classifyLink('javascript://%5B::1%5D/%0aalert(1)')).toMatchObject({ kind: 'blocked', openable: false });
    expect(classifyLink('file://%5B::1%5D/etc/passwd')).toMatchObject({ kind: 'blocked', openable: false });
    expect(classifyLink('http://%5Bexample.com%5D/').kind).toBe('invalid');
  });

  it('gives the punycode host of an internationalised name and marks it', () => {
    const link = classifyLink('https://аpple.com/login'); // Cyrillic "а"
    expect(link.host).toBe('xn--pple-43d.com');
    expect(link.href).toBe('https://xn--pple-43d.com/login');
    expect(link.warnings).toEqual(['idn']);
    expect(classifyLink('https://xn--bcher-kva.example/').warnings).toEqual(['idn']);
  });

  it('flags user info before the host, which makes another host read like the real one', () => {
    const link = classifyLink('https://bank.example@evil.example/');
    expect(link.host).toBe('evil.example');
    expect(link.warnings).toEqual(['credentials']);
  });

  it('opens mailto but nothing else with a scheme', () => {
    expect(classifyLink('mailto:someone@example.com')).toMatchObject({ kind: 'mail', openable: true, host: null, warnings: [] });
    for (const raw of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', ' javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,<b>x</b>', 'vscode://file/etc/passwd', 'ftp://example.com/']) {
      const link = classifyLink(raw);
      expect(link.kind, raw).toBe('blocked');
      expect(link.openable, raw).toBe(false);
      expect(isOpenableUrl(raw), raw).toBe(false);
    }
    expect(classifyLink('java\tscript:alert(1)').scheme).toBe('javascript');
  });

  it('never resolves relative links and anchors against the app', () => {
    for (const raw of ['#section', './notes.md', '/etc/passwd', '//evil.example/x', 'notes.md', '']) {
      expect(classifyLink(raw), raw).toMatchObject({ kind: 'relative', href: null, openable: false });
    }
  });

  it('calls a link with a scheme that the URL parser rejects invalid', () => {
    expect(classifyLink('http://exa mple.com/')).toMatchObject({ kind: 'invalid', openable: false, href: null });
    expect(classifyLink('https://')).toMatchObject({ kind: 'invalid', openable: false });
  });
});
