import type { AgentInfo, ExtensionsListResult, LspServerInfo, McpServerInfo, StyleInfo } from '../../../../shared/contract';
import { Row, Section, SourceBadge, StatusBadge, Warnings } from './common';

type List = ExtensionsListResult;

const overriddenTitle = (x: { overriddenBy: string | null }) => (x.overriddenBy ? `overridden by ${x.overriddenBy}` : undefined);

/** Subagents. */
export function AgentsSection({ data }: { data: List }) {
  return (
    <Section id="agents" title="Subagents" count={data.agents.length} empty={<>Subagents are Markdown files with <code>name</code> and <code>description</code> frontmatter in <code>.claude/agents/</code>, <code>.blade/agents/</code> or <code>~/.claude/agents/</code>.</>}>
      {data.agents.map((a: AgentInfo) => (
        <Row key={`${a.id}:${a.path}`} testId={a.id} name={a.name} path={a.path} warnings={a.warnings.length} summary={a.description} badges={<><SourceBadge source={a.source} plugin={a.plugin} /><StatusBadge status={a.status} title={overriddenTitle(a)} /></>}>
          <dl className="facts compact">
            <dt>Id</dt>
            <dd><code>{a.id}</code></dd>
            <dt>Tools</dt>
            <dd>{a.tools.length ? a.tools.join(', ') : 'all (inherits)'}</dd>
            <dt>Model</dt>
            <dd>{a.model ?? 'inherit'}</dd>
            {a.overriddenBy && (<><dt>Overridden</dt><dd>by <code>{a.overriddenBy}</code></dd></>)}
          </dl>
          <Warnings warnings={a.warnings} />
        </Row>
      ))}
    </Section>
  );
}

/** Output styles. */
export function StylesSection({ data }: { data: List }) {
  return (
    <Section id="styles" title="Output styles" count={data.styles.length} empty={<>Output styles are Markdown files in <code>.claude/output-styles/</code>, <code>.blade/output-styles/</code> or <code>~/.claude/output-styles/</code> (at most 32, 16 KiB each).</>}>
      {data.styles.map((s: StyleInfo) => (
        <Row key={`${s.id}:${s.path}`} testId={s.id} name={s.id} path={s.path} warnings={s.warnings.length} summary={s.description} badges={<><SourceBadge source={s.source} plugin={s.plugin} /><StatusBadge status={s.status} title={overriddenTitle(s)} /></>}>
          <dl className="facts compact">
            <dt>Name</dt>
            <dd>{s.name}</dd>
            <dt>Prompt</dt>
            <dd>{s.promptBytes} bytes</dd>
            <dt>Digest</dt>
            <dd><code className="digest">{s.sha256 ?? '—'}</code></dd>
          </dl>
          <Warnings warnings={s.warnings} />
        </Row>
      ))}
    </Section>
  );
}

/** The literal a server runs or connects to. */
export function mcpLiteral(s: McpServerInfo): string {
  return s.command ? [s.command, ...s.args].join(' ') : (s.url ?? '(no command or URL)');
}

/**
 * An MCP server's detail. Its digest is of the definition alone (name, transport, command, args,
 * cwd, url, env, headers, source): the approval digest on the Hooks tab also covers the workspace
 * files the command runs, so the two differ for such a server and this one is labelled as what it is.
 */
export function McpServerDetail({ server: s }: { server: McpServerInfo }) {
  return (
    <>
      <pre className="hook-command">{mcpLiteral(s)}</pre>
      <dl className="hook-kv">
        {s.cwd && (<><dt>cwd</dt><dd><code>{s.cwd}</code></dd></>)}
        <Pairs label="env" description="Environment variables" pairs={s.env} />
        <Pairs label="headers" description="HTTP headers" pairs={s.headers} />
        <dt title="Digest of the definition as written. Approval uses the Hooks tab's digest, which also covers the files the server's command runs.">Definition digest</dt>
        <dd><code className="digest">{s.digest}</code> <span className="muted">(approval digest: Hooks tab)</span></dd>
      </dl>
      <Warnings warnings={s.warnings} />
    </>
  );
}

/** MCP servers: command or URL, env and header names; values masked by the engine. */
export function McpSection({ data }: { data: List }) {
  return (
    <Section id="mcp" title="MCP servers" count={data.mcpServers.length} empty={<>MCP servers are declared in <code>.mcp.json</code>, <code>.cursor/mcp.json</code>, <code>.vscode/mcp.json</code>, a plugin’s <code>.mcp.json</code>, or by <code>claude mcp add</code> in <code>~/.claude.json</code> (user scope, or local scope for this folder). Whether one may start is decided on the Hooks tab.</>}>
      {data.mcpServers.map((s: McpServerInfo) => (
        <Row key={`${s.id}:${s.path}`} testId={s.id} name={s.name} path={s.path} warnings={s.warnings.length} summary={<code className="ext-literal">{mcpLiteral(s)}</code>} badges={<><span className="hook-chip">{s.transport}</span><SourceBadge source={s.source} plugin={s.plugin} /><StatusBadge status={s.status} title={overriddenTitle(s)} /></>}>
          <McpServerDetail server={s} />
        </Row>
      ))}
    </Section>
  );
}

/**
 * Named values (env variables, headers) under one term, one `NAME = value` row each, so a name and
 * its (masked) value stay on one line (trial: "env ••••••" with the name wrapped below it).
 */
function Pairs({ label, description, pairs }: { label: string; description: string; pairs: Record<string, string> }) {
  const entries = Object.entries(pairs);
  if (entries.length === 0) return null;
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <ul className="ext-pairs" aria-label={description}>
          {entries.map(([k, v]) => (
            <li key={k}>
              <code>{k}</code> = <code className={v.startsWith('••') ? 'masked' : ''}>{v}</code>
            </li>
          ))}
        </ul>
      </dd>
    </>
  );
}

/** LSP servers (listed; starting them belongs to sessions). */
export function LspSection({ data }: { data: List }) {
  return (
    <Section id="lsp" title="LSP servers" count={data.lspServers.length} empty={<>Language servers are declared in <code>.lsp.json</code> (<code>{'{"go": {"command": "gopls", "extensionToLanguage": {".go": "go"}}}'}</code>) or by a plugin.</>}>
      {data.lspServers.map((s: LspServerInfo) => (
        <Row key={`${s.id}:${s.path}`} testId={s.id} name={s.name} path={s.path} warnings={s.warnings.length} summary={<code className="ext-literal">{[s.command ?? '(no command)', ...s.args].join(' ')}</code>} badges={<><span className="hook-chip">{s.extensions.join(' ')}</span><SourceBadge source={s.source} plugin={s.plugin} /><StatusBadge status={s.status} /></>}>
          <dl className="facts compact">
            <dt>Id</dt>
            <dd><code>{s.id}</code></dd>
            <dt>Files</dt>
            <dd>{s.extensions.join(', ') || '—'}</dd>
            <dt>Priority</dt>
            <dd>{s.priority}</dd>
          </dl>
          <Warnings warnings={s.warnings} />
        </Row>
      ))}
    </Section>
  );
}
