import { useState } from 'react';
import type { ExtensionsListResult, SkillInfo } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import { Row, Section, SourceBadge, StatusBadge, Warnings } from './common';

/** Skills: description and metadata; the body is fetched on demand (verified against the recorded digest). */
export function SkillsSection({ workspaceId, data }: { workspaceId: string; data: ExtensionsListResult }) {
  return (
    <Section id="skills" title="Skills" count={data.skills.length} empty={<>Skills are folders with a <code>SKILL.md</code> (frontmatter <code>name</code>, <code>description</code>) in <code>.claude/skills/</code> (also in subfolders, e.g. <code>apps/web/.claude/skills/</code>), <code>.blade/skills/</code>, <code>~/.claude/skills/</code> or a plugin’s <code>skills/</code>.</>}>
      {data.skills.map((s) => (
        <Row key={`${s.id}:${s.path}`} testId={s.id} name={s.name} path={s.path} warnings={s.warnings.length} summary={s.description} badges={<><SourceBadge source={s.source} plugin={s.plugin} />{s.hooks && s.hooks.count > 0 && <span className="badge badge-warn" title="hooks registered while the skill runs">{s.hooks.count} hook{s.hooks.count === 1 ? '' : 's'}</span>}<StatusBadge status={s.status} title={s.overriddenBy ? `overridden by ${s.overriddenBy}` : undefined} /></>}>
          <SkillDetail workspaceId={workspaceId} skill={s} />
        </Row>
      ))}
    </Section>
  );
}

function SkillDetail({ workspaceId, skill }: { workspaceId: string; skill: SkillInfo }) {
  const client = useApp((s) => s.client);
  const [body, setBody] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () => {
    setError(null);
    client
      ?.request('extensions.skillBody', { workspaceId, id: skill.id })
      .then((r) => setBody(r.body))
      .catch((e: Error) => setError(e.message));
  };
  return (
    <>
      <p className="ext-description">{skill.description || <span className="muted">(no description)</span>}</p>
      <dl className="facts compact">
        <dt>Id</dt>
        <dd><code>/{skill.id}</code></dd>
        {skill.whenToUse && (<><dt>When</dt><dd>{skill.whenToUse}</dd></>)}
        {skill.argumentHint && (<><dt>Hint</dt><dd><code>{skill.argumentHint}</code></dd></>)}
        {skill.arguments.length > 0 && (<><dt>Arguments</dt><dd>{skill.arguments.map((a) => <code key={a} className="ext-tool">${a}</code>)}</dd></>)}
        {skill.hooks && (<><dt>Hooks</dt><dd>{skill.hooks.count} ({skill.hooks.events.join(', ') || 'none'}) · not run by Atrium and not on the Hooks tab (sessions load no skills of their own); an agent that loads the skill itself runs them, without asking Atrium, only while the skill is invoked</dd></>)}
        {skill.shellEmbeds.length > 0 && (<><dt>Runs</dt><dd>{skill.shellEmbeds.map((c) => <code key={c} className="ext-tool">{c}</code>)}</dd></>)}
        {skill.allowedTools.length > 0 && (<><dt>Allowed tools</dt><dd>{skill.allowedTools.map((t) => <code key={t} className="ext-tool">{t}</code>)}</dd></>)}
        <dt>Invocation</dt>
        <dd>{skill.disableModelInvocation ? 'only by the user' : 'by the model or the user'}{skill.userInvocable ? '' : ' · hidden from the / menu'}{skill.model ? ` · model ${skill.model}` : ''}</dd>
        <dt>Digest</dt>
        <dd><code className="digest">{skill.sha256 ?? '—'}</code></dd>
      </dl>
      <Warnings warnings={skill.warnings} />
      {body === null ? (
        <button className="button" onClick={load} disabled={skill.sha256 === null}>
          Show body ({skill.bodyBytes} bytes)
        </button>
      ) : (
        <pre className="file-content" aria-label={`Body of ${skill.name}`}>{body}</pre>
      )}
      {error && <p className="field-error">{error}</p>}
    </>
  );
}
