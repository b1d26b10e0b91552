import type { ExtensionsListResult } from '../../../../shared/contract';
import { CommandPreview } from './CommandPreview';
import { Row, Section, SourceBadge, StatusBadge, Warnings } from './common';

/** Custom commands: frontmatter, shell embeds, and a live expansion preview. */
export function CommandsSection({ workspaceId, data }: { workspaceId: string; data: ExtensionsListResult }) {
  return (
    <Section id="commands" title="Commands" count={data.commands.length} empty={<>Custom commands are Markdown files in <code>.claude/commands/</code>, <code>.blade/commands/</code> or <code>~/.claude/commands/</code>; a subfolder is part of the name (<code>frontend/lint</code>).</>}>
      {data.commands.map((c) => (
        <Row
          key={`${c.id}:${c.path}`}
          testId={c.id}
          name={`/${c.id}`}
          path={c.path}
          warnings={c.warnings.length}
          summary={c.description}
          badges={
            <>
              <SourceBadge source={c.source} plugin={c.plugin} />
              {c.hasShellEmbeds && <span className="badge badge-warn" title={c.shellEmbeds.join('\n')}>runs shell</span>}
              <StatusBadge status={c.status} title={c.overriddenBy ? `overridden by ${c.overriddenBy}` : undefined} />
            </>
          }
        >
          {Object.keys(c.frontmatter).length > 0 && (
            <dl className="facts compact ext-frontmatter" aria-label="Frontmatter">
              {Object.entries(c.frontmatter).map(([k, v]) => (
                <div key={k} className="ext-fm-row">
                  <dt>{k}</dt>
                  {/* a value YAML did not read as text shows as written (`[topic: foo | bar]`, `1.50`) */}
                  <dd><code>{typeof v === 'string' ? v : (c.frontmatterSource?.[k] ?? JSON.stringify(v))}</code></dd>
                </div>
              ))}
            </dl>
          )}
          <Warnings warnings={c.warnings} />
          {c.status === 'invalid' ? <p className="muted">This file cannot be read, so there is nothing to preview.</p> : <CommandPreview workspaceId={workspaceId} command={c} />}
        </Row>
      ))}
    </Section>
  );
}
