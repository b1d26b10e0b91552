import { memo } from 'react';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';

const components = {
  // links open outside the app (the Electron shell blocks in-window navigation)
  a: ({ href, children }: { href?: string; children?: React.ReactNode }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ),
  // images from agent text are not fetched (no remote requests from the transcript)
  img: ({ alt }: { alt?: string }) => <span className="muted">[image{alt ? `: ${alt}` : ''}]</span>,
};

/** Agent or user text as Markdown (GFM); raw HTML is never rendered, URLs are sanitized by react-markdown. */
export const MessageMarkdown = memo(function MessageMarkdown({ text }: { text: string }) {
  return (
    <div className="markdown sess-md">
      <Markdown remarkPlugins={[remarkGfm]} skipHtml components={components}>
        {text}
      </Markdown>
    </div>
  );
});
