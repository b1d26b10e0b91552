import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { classifyLink } from '../../../src/shared/externalLink';
import { MessageMarkdown } from '../../../src/renderer/src/features/sessions/Markdown';

// the dialog's module graph reads the window's address at import (the app store's initial route)
vi.stubGlobal('location', { hash: '' });
const { LinkDetails } = await import('../../../src/renderer/src/features/links/LinkDialog');

const details = (raw: string) => renderToStaticMarkup(createElement(LinkDetails, { link: classifyLink(raw) }));
const markdown = (text: string) => renderToStaticMarkup(createElement(MessageMarkdown, { text }));

describe('links in agent text', () => {
  it('render http(s) and mailto links with their normalised address and nothing that navigates on its own', () => {
    const out = markdown('See [the docs](<https://docs.example.com/a b>) and [mail](mailto:x@example.com).');
    expect(out).toContain('<a href="https://docs.example.com/a%20b" class="agent-link" data-link-kind="web" title="https://docs.example.com/a%20b">the docs</a>');
    expect(out).toContain('href="mailto:x@example.com"');
    expect(out).not.toMatch(/target=|_blank/);
  });

  it('never put a javascript:, file: or relative link into an href', () => {
    const out = markdown('[run](javascript:alert(1)) [file](file:///etc/passwd) [here](#heading) [notes](./notes.md)');
    expect(out).not.toMatch(/href=/);
    expect(out).toContain('role="link" tabindex="0" class="agent-link" data-link-kind="blocked" title="javascript:alert(1)">run</a>');
    expect(out).toContain('data-link-kind="relative" title="#heading">here</a>');
    // images from agent text are still not loaded
    expect(markdown('![logo](https://tracker.example/p.png)')).toBe('<div class="markdown sess-md"><p><span class="muted">[image: logo]</span></p></div>');
  });
});

describe('link confirmation details', () => {
  it('show the full address and host of a plain https link with no warning', () => {
    const long = `https://docs.example.com/${'segment/'.repeat(40)}end?q=1`;
    const out = details(long);
    expect(out).toContain(`<code class="link-address selectable" aria-labelledby="link-address-label" data-testid="link-address">${long}</code>`);
    expect(out).toContain('<strong class="link-host">docs.example.com</strong>');
    expect(out).not.toContain('data-warning');
  });

  it('say prominently that http is not encrypted and that an IP host is an IP address, whatever its spelling', () => {
    const out = details('http://2130706433/admin');
    expect(out).toContain('http://127.0.0.1/admin');
    expect(out).toContain('Written as <code class="selectable">http://2130706433/admin</code>');
    expect(out).toContain('data-warning="insecure"');
    expect(out).toContain('data-warning="ip-address"');
    expect(out).toContain('The host is an IP address (127.0.0.1)');
    expect(details('https://[::1]:8443/').match(/data-warning="([^"]+)"/g)).toEqual(['data-warning="ip-address"']);
  });

  it('mark a non-ASCII host and show its ASCII form', () => {
    const out = details('https://аpple.com/');
    expect(out).toContain('<strong class="link-host">xn--pple-43d.com</strong>');
    expect(out).toContain('ASCII form of a non-ASCII name');
    expect(out).toContain('data-warning="idn"');
  });

  it('say that javascript: and relative links are never opened', () => {
    expect(details('javascript:alert(1)')).toContain('Atrium never opens javascript: links');
    expect(details('./notes.md')).toContain('data-warning="relative"');
    expect(details('https://bank.example@evil.example/')).toContain('this link goes to evil.example');
  });
});
