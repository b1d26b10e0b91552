import type { KeyboardEvent, MouseEvent, ReactNode } from 'react';
import { classifyLink, restoreIpv6Brackets } from '../../../../shared/externalLink';
import { useLinkDialog } from './linkDialogStore';

/**
 * A link in agent or repository text (the `a` of react-markdown). Activating it (click, middle
 * click, Enter) never follows it: it opens the link confirmation, which shows the full address.
 * Only http, https and mailto links carry an `href` at all (so hovering shows where they go and
 * nothing else is ever handed to the page); other schemes and relative links are a focusable
 * `role="link"` without one.
 */
export function AgentLink({ href, children }: { href?: string; children?: ReactNode }) {
  const raw = href ?? '';
  const link = classifyLink(raw);
  const show = useLinkDialog((s) => s.show);
  const activate = (e: MouseEvent<HTMLAnchorElement> | KeyboardEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    show(raw, e.currentTarget);
  };
  return (
    <a
      href={link.openable ? (link.href ?? undefined) : undefined}
      role={link.openable ? undefined : 'link'}
      tabIndex={link.openable ? undefined : 0}
      className="agent-link"
      data-link-kind={link.kind}
      title={link.href ?? raw}
      onClick={activate}
      onAuxClick={(e) => e.button === 1 && activate(e)}
      onKeyDown={(e) => !link.openable && e.key === 'Enter' && activate(e)}
    >
      {children}
    </a>
  );
}

/**
 * react-markdown's `urlTransform` that keeps every URL as written: its default blanks
 * `javascript:` and friends, which would leave the confirmation nothing to show, and the brackets
 * of an IPv6 host that Markdown parsing percent-encoded are put back ({@link restoreIpv6Brackets}),
 * so the confirmation shows `http://[::1]/` as the agent wrote it. Nothing here puts a URL into the
 * page: {@link AgentLink} decides what becomes an `href`, and images are not loaded.
 */
export const keepUrlAsWritten = (url: string): string => restoreIpv6Brackets(url);

/** Elements shared by every Markdown view of agent or repository text: safe links, images not fetched. */
export const untrustedMarkdownComponents = {
  a: AgentLink,
  // images from agent or repository text are not fetched (no remote requests from what they wrote)
  img: ({ alt }: { alt?: string }) => <span className="muted">[image{alt ? `: ${alt}` : ''}]</span>,
};
