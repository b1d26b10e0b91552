import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MessageMarkdown } from '../../../src/renderer/src/features/sessions/Markdown';

const html = (text: string) => renderToStaticMarkup(createElement(MessageMarkdown, { text }));

describe('transcript Markdown', () => {
  it('shows raw HTML in agent text as literal text, never as elements, and loses none of the lines it spans', () => {
    const out = html('echo:\n\n<imported-file path="AGENTS.md" sha256="ab12">\nUse TypeScript.\n</imported-file>\nhello there\n\nA generic `Map<K, V>` and an inline <b>tag</b>.');
    expect(out).toContain('&lt;imported-file path=&quot;AGENTS.md&quot; sha256=&quot;ab12&quot;&gt;');
    expect(out).toContain('Use TypeScript.');
    expect(out).toContain('hello there');
    expect(out).toContain('&lt;b&gt;tag&lt;/b&gt;');
    expect(out).not.toMatch(/<imported-file|<b>/);
    expect(out).toContain('<code>Map&lt;K, V&gt;</code>');
  });

  it('keeps Markdown itself: headings, tables and lists still render', () => {
    const out = html('# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- <x> item');
    expect(out).toContain('<h1>Title</h1>');
    expect(out).toContain('<td>1</td>');
    expect(out).toMatch(/<li>&lt;x&gt; item<\/li>/);
  });
});

describe('links in transcript Markdown', () => {
  it('keep an IPv6 host as written, so the link is an IP-address web link, not an invalid one', () => {
    const out = html('See [the dev server](http://[::ffff:127.0.0.1]/) and [v6](https://[::1]:8443/x).');
    expect(out).toContain('href="http://[::ffff:7f00:1]/"');
    expect(out).toContain('title="http://[::ffff:7f00:1]/"');
    expect(out).toContain('href="https://[::1]:8443/x"');
    expect(out).not.toContain('%5B');
    expect(out).not.toContain('data-link-kind="invalid"');
    expect(out.match(/data-link-kind="web"/g)).toHaveLength(2);
  });

  it('still carries no href for a blocked scheme written with an IPv6-looking host', () => {
    const out = html('[x](javascript://[::1]/%0aalert(1))');
    expect(out).toContain('data-link-kind="blocked"');
    expect(out).not.toContain('href=');
  });
});
