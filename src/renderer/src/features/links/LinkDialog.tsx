import { useEffect, useRef, useState } from 'react';
import { AlertTriangle, Ban, Copy, ExternalLink } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { ClassifiedLink } from '../../../../shared/externalLink';
import { useApp } from '../../state/appStore';
import { useLinkDialog } from './linkDialogStore';
import './links.css';

/**
 * The link confirmation, mounted once. Shows the full address of the link the user activated,
 * what is unusual about it, and Open / Copy / Cancel. Opening goes through the desktop's main
 * process (`app.openExternal`, which checks the URL again) in the app's own window, and
 * `window.open(…, 'noopener,noreferrer')` in a browser tab. Also catches clicks on any other
 * external `<a href>` in the page, so no link anywhere navigates the app or fails silently.
 */
export function LinkDialog() {
  const link = useLinkDialog((s) => s.link);
  const close = useLinkDialog((s) => s.close);
  const client = useApp((s) => s.client);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useInterceptStrayLinks();
  useEffect(() => {
    setError(null);
    setCopied(null);
  }, [link]);

  const open = async () => {
    if (!link?.openable || !link.href) return;
    try {
      if (client?.desktop) await client.request('app.openExternal', { url: link.href });
      else window.open(link.href, '_blank', 'noopener,noreferrer');
      close();
    } catch (e) {
      setError(`Could not open the link: ${(e as Error).message}`);
    }
  };
  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link.href ?? link.raw);
      setCopied('Copied the link.');
    } catch {
      setCopied('Could not copy: select the address above and copy it.');
    }
  };
  const calm = link !== null && link.kind === 'web' && link.warnings.length === 0 && link.scheme === 'https';

  return (
    <Dialog.Root open={link !== null} onOpenChange={(o) => !o && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog dialog-medium link-dialog"
          aria-describedby="link-dialog-text"
          onOpenAutoFocus={(e) => {
            // Enter opens a plain https link; anything unusual starts on Cancel
            e.preventDefault();
            (calm ? openRef.current : cancelRef.current)?.focus();
          }}
          onCloseAutoFocus={(e) => {
            const back = useLinkDialog.getState().returnFocus;
            // a view that re-rendered meanwhile replaced the link: go back to its twin (same address and text)
            const target = back?.isConnected ? back : back ? twinOf(back) : null;
            if (target) {
              e.preventDefault();
              target.focus();
            }
          }}
        >
          {link && (
            <>
              <Dialog.Title className="dialog-title">{titleFor(link)}</Dialog.Title>
              <p id="link-dialog-text" className="dialog-text">
                {link.openable ? 'The link comes from text an agent or a repository wrote. Check where it goes before you open it.' : 'The link comes from text an agent or a repository wrote.'}
              </p>
              <LinkDetails link={link} />
              {error && (
                <p className="field-error" role="alert">
                  {error}
                </p>
              )}
              <div className="dialog-actions">
                <span className="dialog-actions-note" role="status">
                  {copied}
                </span>
                <button className="button" onClick={() => void copy()}>
                  <Copy size={13} aria-hidden /> Copy link
                </button>
                <Dialog.Close asChild>
                  <button className="button" ref={cancelRef}>
                    Cancel
                  </button>
                </Dialog.Close>
                {link.openable && (
                  <button className="button primary" ref={openRef} onClick={() => void open()}>
                    <ExternalLink size={13} aria-hidden /> {link.kind === 'mail' ? 'Open in mail app' : 'Open in browser'}
                  </button>
                )}
              </div>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function titleFor(link: ClassifiedLink): string {
  if (link.openable) return link.kind === 'mail' ? 'Write an email?' : 'Open this link in your browser?';
  return 'Atrium does not open this link';
}

/**
 * The body of the confirmation: the whole address (wrapped, never cut), the host on its own line,
 * and one line for each thing that deserves a second look. Exported for tests.
 */
export function LinkDetails({ link }: { link: ClassifiedLink }) {
  const address = link.href ?? link.raw;
  return (
    <div className="link-details">
      <div className="link-label" id="link-address-label">
        Address
      </div>
      <code className="link-address selectable" aria-labelledby="link-address-label" data-testid="link-address">
        {address}
      </code>
      {link.href !== null && link.raw.trim() !== link.href && (
        <p className="link-line muted">
          Written as <code className="selectable">{link.raw}</code>
        </p>
      )}
      {link.host && (
        <p className="link-line">
          Host <strong className="link-host">{link.host}</strong>
          {link.warnings.includes('idn') && <span className="badge badge-warn">ASCII form of a non-ASCII name</span>}
          {link.hostKind !== 'name' && <span className="badge badge-warn">IP address</span>}
        </p>
      )}
      <ul className="link-warnings">
        {warningLines(link).map((w) => (
          <li key={w.key} className={`link-warning ${w.tone === 'error' ? 'banner-error' : 'banner-warn'}`} data-warning={w.key}>
            {w.tone === 'error' ? <Ban size={14} aria-hidden /> : <AlertTriangle size={14} aria-hidden />}
            <span>{w.text}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The lines under the address, most serious first. */
function warningLines(link: ClassifiedLink): Array<{ key: string; tone: 'warn' | 'error'; text: string }> {
  const lines: Array<{ key: string; tone: 'warn' | 'error'; text: string }> = [];
  if (link.kind === 'blocked') {
    lines.push({ key: 'blocked', tone: 'error', text: `Atrium never opens ${link.scheme}: links: they can run code, open local files or start other programs. Copy it if you need it.` });
  } else if (link.kind === 'relative') {
    lines.push({ key: 'relative', tone: 'error', text: 'This is a relative link (a file or heading the text refers to), not a web address, so there is nothing to open.' });
  } else if (link.kind === 'invalid') {
    lines.push({ key: 'invalid', tone: 'error', text: 'This is not a valid web address, so Atrium does not open it.' });
  }
  if (link.warnings.includes('insecure')) lines.push({ key: 'insecure', tone: 'warn', text: 'Not https: the connection is not encrypted, so anyone on the network path can read or change the page.' });
  if (link.warnings.includes('ip-address')) lines.push({ key: 'ip-address', tone: 'warn', text: `The host is an IP address (${link.host}), not a name you can recognise.` });
  if (link.warnings.includes('idn')) lines.push({ key: 'idn', tone: 'warn', text: `The host name has non-ASCII letters, which can imitate another site; its real name is ${link.host}.` });
  if (link.warnings.includes('credentials')) lines.push({ key: 'credentials', tone: 'warn', text: `The text before "@" is not the site: this link goes to ${link.host}.` });
  if (link.kind === 'mail') lines.push({ key: 'mail', tone: 'warn', text: 'Not a web page: a mailto: link opens your mail program with this address.' });
  return lines;
}

/**
 * Any `<a href>` outside the Markdown views (or added later) that is not an in-app `#…` route:
 * its click or middle click shows the confirmation instead of navigating. Handlers that already
 * dealt with their click (`preventDefault`) are left alone.
 */
function useInterceptStrayLinks() {
  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || (e.type === 'auxclick' && e.button !== 1)) return;
      const anchor = e.target instanceof Element ? e.target.closest('a[href]') : null;
      const href = anchor?.getAttribute('href');
      if (!anchor || href == null || href.startsWith('#')) return;
      e.preventDefault();
      useLinkDialog.getState().show(href, anchor as HTMLElement);
    };
    document.addEventListener('click', onClick);
    document.addEventListener('auxclick', onClick);
    return () => {
      document.removeEventListener('click', onClick);
      document.removeEventListener('auxclick', onClick);
    };
  }, []);
}

/** The element now in the document that stands where `gone` (a link replaced by a re-render) stood: same tag, class, href, title and text. */
function twinOf(gone: HTMLElement): HTMLElement | null {
  const href = gone.getAttribute('href');
  const text = gone.textContent;
  const title = gone.getAttribute('title');
  for (const el of document.querySelectorAll<HTMLElement>(`.${gone.classList[0] ?? 'agent-link'}`)) {
    if (el.tagName === gone.tagName && el.getAttribute('href') === href && el.getAttribute('title') === title && el.textContent === text) return el;
  }
  return null;
}
