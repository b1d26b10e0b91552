import { useState } from 'react';
import { OpenInEditor } from '../../components/OpenInEditor';
import Markdown from 'react-markdown';
import { Tabs } from 'radix-ui';
import { useLive } from '../../api/useLive';
import type { RuleFileInfo } from '../../../../shared/contract';
import { digestWords, priorityWords, ruleFormatWords } from '../../components/jargon';
import { keepUrlAsWritten, untrustedMarkdownComponents } from '../links/AgentLink';
import { formatBytes, rehypeShowControls, showControls } from './format';

/**
 * Why a file was not read, in words: restricted mode, or its own error (over the size limit with
 * the limit, binary, not UTF-8, a symlink leaving the folder…), never "restricted" for a file of a
 * trusted folder.
 */
export function notReadReason(f: RuleFileInfo): string {
  if (f.status === 'restricted') return 'Not read: the folder is not trusted (restricted mode lists files by name only)';
  const error = f.warnings.find((w) => w.severity === 'error');
  return error ? `Not read: ${error.message.replace(/^The file is /, 'the file is ')}` : 'Not read (see the warnings above)';
}

/** One rule file with its provenance: rendered and raw text, frontmatter, patterns, digest, imports, warnings. */
export function RuleDetail({ workspaceId, id }: { workspaceId: string; id: string }) {
  const live = useLive('rules.file', { workspaceId, id }, ['rulesChanged', 'trustChanged']);
  const [view, setView] = useState('rendered');
  const d = live.data;
  if (live.error) return <div className="banner banner-error">{live.error}</div>;
  if (!d) return <p className="muted">Loading…</p>;
  const f = d.file;
  return (
    <article className="rule-detail" aria-label={`Rule file ${f.path}`}>
      <header>
        <div className="rule-detail-head">
          <h2 className="rule-detail-title">{f.path}</h2>
          <OpenInEditor path={d.absolutePath} />
        </div>
        <p className="muted">
          <abbr title={ruleFormatWords(f.format)}>{f.format}</abbr> · {f.source} · scope <code>{f.scope ? `${f.scope}/` : '/'}</code> · <abbr title={priorityWords(f.priority)}>priority {f.priority}</abbr> ·{' '}
          <span title="Size of the file on disk">{formatBytes(f.bytes)} on disk</span>
          {f.sha256 !== null && f.bodyBytes !== f.bytes && (
            <span title="What budgets count and sessions receive: the body without frontmatter, with imports expanded">
              {' '}
              · {formatBytes(f.bodyBytes)} sent{f.imports.length > 0 ? ' with imports' : ''}
            </span>
          )}{' '}
          · {f.status}
          {f.linkTarget && (
            <>
              {' '}
              · symlink to <code>{f.linkTarget}</code>
            </>
          )}
        </p>
      </header>
      {f.warnings.length > 0 && (
        <ul className="finding-list">
          {f.warnings.map((w, i) => (
            <li key={i} className={`finding finding-${w.severity}`}>
              <strong>{w.code}</strong>
              {w.line ? ` line ${w.line}` : ''}: {w.message}
              {w.fix && <div className="finding-fix">Fix: {w.fix}</div>}
            </li>
          ))}
        </ul>
      )}
      <dl className="facts compact">
        <dt>Applies</dt>
        <dd>
          {f.kind === 'always' && 'Always, to every file in its scope'}
          {f.kind === 'manual' && `Only when invoked by name${f.description ? `: ${f.description}` : ''}`}
          {f.kind === 'agent-requested' && `Cursor offers it to the agent by its description${f.description ? ` (“${f.description}”)` : ''}; Atrium never loads it automatically`}
          {f.kind === 'conditional' && (f.patterns.length > 0 ? `When a file matching a pattern (${f.conditionKey ?? 'paths'}) is touched` : `Never: ${f.condition.replace(/^never: /, '')}`)}
          {f.kind === 'unknown' && <span data-testid="not-read-reason">{notReadReason(f)}</span>}
        </dd>
        {d.patterns.length > 0 && (
          <>
            <dt>Patterns</dt>
            <dd>
              <ul className="plain-list">
                {d.patterns.map((p) => (
                  <li key={p.pattern} title={p.sample.join('\n')}>
                    <code>{p.pattern}</code>{' '}
                    <span className={p.matches === 0 ? 'field-error' : 'muted'}>
                      matches {p.matches}
                      {p.capped ? '+' : ''} file{p.matches === 1 ? '' : 's'} here
                    </span>
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        <dt title={f.sha256 ? digestWords('file', f.sha256) : undefined}>Digest</dt>
        <dd>
          <code className="selectable digest" title={f.sha256 ? digestWords('file', f.sha256) : 'No digest: the file was not read'}>
            {f.sha256 ?? '—'}
          </code>
        </dd>
        {f.imports.length > 0 && (
          <>
            <dt>Imports</dt>
            <dd>
              <ul className="plain-list">
                {f.imports.map((imp) => (
                  <li key={`${imp.from}:${imp.path}`}>
                    <code>{imp.path}</code> <span className="muted">
                      from {imp.from}:{imp.line} · <span title={digestWords('file', imp.sha256)}>sha256 {imp.sha256.slice(0, 12)}</span>
                    </span>
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        <dt>Location</dt>
        <dd>
          <code className="selectable">{d.absolutePath}</code>
        </dd>
      </dl>
      {d.raw !== null && (
        <Tabs.Root value={view} onValueChange={setView} className="rule-text-tabs">
          <Tabs.List className="tab-list small" aria-label="Text view">
            <Tabs.Trigger className="tab" value="rendered">
              Rendered
            </Tabs.Trigger>
            <Tabs.Trigger className="tab" value="raw">
              Raw
            </Tabs.Trigger>
            <Tabs.Trigger className="tab" value="sent">
              As sent to agents
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="rendered" className="markdown">
            {d.frontmatter && <pre className="frontmatter">{showControls(d.frontmatter.raw)}</pre>}
            {/* The engine already writes smuggling characters as ⟨U+XXXX⟩; showControls does the same for
                every invisible or bidi character of the source, and rehypeShowControls for any that Markdown
                itself produces (a character reference such as &#x202E; decodes only while rendering). */}
            <Markdown components={untrustedMarkdownComponents} urlTransform={keepUrlAsWritten} rehypePlugins={[rehypeShowControls]}>
              {showControls(d.content ?? d.body ?? '')}
            </Markdown>
          </Tabs.Content>
          <Tabs.Content value="raw">
            <pre className="file-content">{showControls(d.raw)}</pre>
          </Tabs.Content>
          <Tabs.Content value="sent">
            <pre className="file-content">{d.rendered !== null ? showControls(d.rendered) : 'This file is not sent (it is not active).'}</pre>
          </Tabs.Content>
        </Tabs.Root>
      )}
    </article>
  );
}
