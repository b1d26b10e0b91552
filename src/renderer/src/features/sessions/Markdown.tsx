import { memo } from 'react';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { keepUrlAsWritten, untrustedMarkdownComponents } from '../links/AgentLink';

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

/**
 * Agent or user text as Markdown (GFM); raw HTML is shown as text, never rendered; links open only
 * through the link confirmation ({@link untrustedMarkdownComponents}); images are not fetched.
 */
export const MessageMarkdown = memo(function MessageMarkdown({ text }: { text: string }) {
  return (
    <div className="markdown sess-md">
      <Markdown remarkPlugins={[remarkGfm, remarkHtmlAsText]} components={untrustedMarkdownComponents} urlTransform={keepUrlAsWritten}>
        {text}
      </Markdown>
    </div>
  );
});
