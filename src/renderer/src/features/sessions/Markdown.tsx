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

/** The slice of an mdast node this plugin reads. */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/**
 * Shows raw HTML in agent text as the literal text it is instead of dropping it: agents write
 * `<example>`, `<T>` or the tags Atrium wraps injected rules in, and a CommonMark HTML block swallows
 * every line up to the next blank one, so dropping it would hide text the agent really sent.
 * A block becomes a paragraph of text, inline HTML becomes text; nothing is rendered as HTML.
 */
export function remarkHtmlAsText() {
  const walk = (node: MdNode): void => {
    if (!node.children) return;
    // an HTML node right below a flow container is an HTML block; elsewhere it is inline HTML
    const flow = FLOW_CONTAINERS.has(node.type);
    node.children = node.children.map((child) => {
      if (child.type !== 'html') return child;
      const text: MdNode = { type: 'text', value: child.value ?? '' };
      return flow ? { type: 'paragraph', children: [text] } : text;
    });
    for (const child of node.children) walk(child);
  };
  return (tree: MdNode) => walk(tree);
}

const FLOW_CONTAINERS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

/** Agent or user text as Markdown (GFM); raw HTML is shown as text, never rendered; URLs are sanitized by react-markdown. */
export const MessageMarkdown = memo(function MessageMarkdown({ text }: { text: string }) {
  return (
    <div className="markdown sess-md">
      <Markdown remarkPlugins={[remarkGfm, remarkHtmlAsText]} components={components}>
        {text}
      </Markdown>
    </div>
  );
});
