import { createTwoFilesPatch } from 'diff';
import type { LoadedContextualRule, PolicyRuleRef, ProvenanceMismatch, RuleFileChange } from '../../../../shared/contract';
import type { RuleCatalog } from '../../rules/catalog';
import type { RuleSelection } from '../../rules/types';
import { RULES_CHANGED_MESSAGE_START } from '../records';

/** Largest diff text reported per file (characters). */
const MAX_DIFF = 64 * 1024;

/** What a resume compares against the current catalog. */
export interface RecordedRules {
  /** Recorded static provenance (seed §6 `projectInstructionsDigest`). */
  provenanceSha256: string;
  /** Every recorded static file (sent and native). */
  staticRefs: readonly PolicyRuleRef[];
  /** Contextual references the session loaded (hydrated on resume, seed §7 step 1). */
  contextual: readonly LoadedContextualRule[];
}

/**
 * Re-checks a session's recorded rules against the current catalog (seed §6 static rule pin, §7
 * step 1 hydration; a mismatch fails closed): the static selection's `provenanceSha256` must equal
 * the recorded one, and every recorded contextual reference must still hydrate (same id, sha256,
 * relativePath, source, status active, as `RuleCatalog.hydrate` checks). Returns null when
 * everything matches, else the mismatch with every changed file (added/removed/edited, with a
 * unified diff when the recorded text was kept) and the two actions. Never throws.
 *
 * @param currentStatic `catalog.staticRules(fromDir)` now
 * @param recordedText the text kept for a digest, or null
 */
export function checkProvenance(
  recorded: RecordedRules,
  catalog: RuleCatalog,
  currentStatic: RuleSelection,
  recordedText: (sha256: string) => string | null,
  now: string,
): ProvenanceMismatch | null {
  const changes: RuleFileChange[] = [];
  if (currentStatic.provenanceSha256 !== recorded.provenanceSha256) {
    const before = new Map(recorded.staticRefs.map((r) => [r.id, r]));
    const after = new Map(currentStatic.files.map((s) => [s.file.id, s.file]));
    for (const [id, ref] of before) {
      const cur = after.get(id);
      if (!cur) changes.push({ relativePath: ref.relativePath, source: ref.source, change: 'removed', scope: 'static', diff: diffOf(ref.relativePath, recordedText(ref.sha256), null) });
      else if (cur.sha256 !== ref.sha256) changes.push({ relativePath: ref.relativePath, source: ref.source, change: 'edited', scope: 'static', diff: diffOf(ref.relativePath, recordedText(ref.sha256), cur.content) });
    }
    for (const [id, file] of after) {
      if (!before.has(id)) changes.push({ relativePath: file.relativePath, source: file.source, change: 'added', scope: 'static', diff: diffOf(file.relativePath, null, file.content) });
    }
    if (!changes.length) {
      // same files, different order or selection: still a different provenance
      changes.push({ relativePath: '(static rule selection)', source: 'project', change: 'edited', scope: 'static', diff: null });
    }
  }
  for (const ref of recorded.contextual) {
    const cur = catalog.get(ref.id);
    const same = cur && cur.status === 'active' && cur.sha256 === ref.sha256 && cur.relativePath === ref.relativePath && cur.source === ref.source;
    if (same) continue;
    if (changes.some((c) => c.relativePath === ref.relativePath)) continue;
    const gone = !cur || cur.status !== 'active' || cur.sha256 === null;
    changes.push({
      relativePath: ref.relativePath,
      source: ref.source,
      change: gone ? 'removed' : 'edited',
      scope: 'contextual',
      diff: diffOf(ref.relativePath, recordedText(ref.sha256), gone ? null : cur.content),
    });
  }
  if (!changes.length) return null;
  return { detectedAt: now, recordedProvenanceSha256: recorded.provenanceSha256, currentProvenanceSha256: currentStatic.provenanceSha256, changes, actions: ['continue', 'new'] };
}

/** A unified diff of two versions of a rule (null when neither text is known). */
export function diffOf(name: string, before: string | null, after: string | null): string | null {
  if (before === null && after === null) return null;
  const patch = createTwoFilesPatch(`a/${name}`, `b/${name}`, before === null ? '' : `${before}\n`, after === null ? '' : `${after}\n`, before === null ? '(not recorded)' : 'recorded', after === null ? '(removed)' : 'current');
  return patch.length > MAX_DIFF ? `${patch.slice(0, MAX_DIFF)}\n… (diff truncated)` : patch;
}

/** The one-paragraph message of a fail-closed resume (listed files, the two ways on). */
export function mismatchMessage(m: ProvenanceMismatch): string {
  const lines = m.changes.slice(0, 20).map((c) => `  ${c.change} ${c.relativePath} (${c.scope})`);
  return [
    `${RULES_CHANGED_MESSAGE_START}: the rules this session was given changed, so it does not continue (fail closed).`,
    ...lines,
    `Continue with the current rules (the new provenance is recorded in the transcript), or start a new session.`,
  ].join('\n');
}
