import { AtriumError } from '../../../../shared/errors';
import type { ApprovedMcpServer } from '../../hooks/service';
import type { RuleCatalog } from '../../rules/catalog';
import type { RuleSelection, SelectedRule, UnselectedRule } from '../../rules/types';
import { notIsolatedNotice, notRunWording } from './agentIsolation';
import { codexReadsProjectDocs } from './codexIsolation';
import { geminiLoadsRulesFor } from './geminiIsolation';
import { splitMcpServers } from './mcpFilter';
import { checkProvenance, mismatchMessage } from './provenance';
import { hookTargetOf, type PolicyCore, type PolicyState } from './state';
import { refsOf, type SnapshotRecord } from './store';

/** SHA-256 of the empty string: the provenance of an empty static selection (seed §4.5). */
const EMPTY_PROVENANCE = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/**
 * Makes the session's snapshot ready for its agent process (single-flight): the first time it is
 * taken and recorded ({@link takeSnapshot}); when a snapshot is recorded already it is verified
 * against the disk ({@link verifySnapshot}).
 * @throws AtriumError RULE_PROVENANCE_MISMATCH (fail closed)
 */
export function ensureSnapshot(core: PolicyCore, st: PolicyState): Promise<void> {
  if (st.snapshotReady) return Promise.resolve();
  if (!st.taking) {
    const run = st.row.snapshot ? verifySnapshot(core, st, st.row.snapshot) : takeSnapshot(core, st);
    st.taking = run.finally(() => {
      st.taking = null;
    });
  }
  return st.taking;
}

/**
 * Marks the snapshot for re-verification before an agent process re-attaches to a session whose
 * snapshot is recorded: the next {@link ensureSnapshot}
 * recomputes the static provenance and hydrates the loaded contextual references from disk,
 * whether the agent stopped idle, crashed or the session was closed and resumed.
 */
export function requireVerification(st: PolicyState): void {
  if (st.row.snapshot) st.snapshotReady = false;
}

/**
 * Re-checks a recorded snapshot against the rules on disk now (seed §6 static rule pin, §7 step 1
 * hydration): a changed static provenance or a loaded contextual reference that no longer
 * hydrates records the mismatch (one `rules_mismatch` notice) and fails closed. When everything
 * matches, the session keeps the catalog it was given in this process (after a restart, or after
 * the user accepted changed rules, the current one becomes its catalog), its snapshot hooks, and
 * its snapshot MCP servers (after a restart: the definitions on disk that still have the digest).
 * @throws AtriumError RULE_PROVENANCE_MISMATCH
 */
async function verifySnapshot(core: PolicyCore, st: PolicyState, recorded: SnapshotRecord): Promise<void> {
  const now = new Date().toISOString();
  const catalog = await currentCatalog(core, st, true);
  const current = safeStatic(catalog, st.row.fromDir);
  const mismatch = catalog
    ? checkProvenance(
        { provenanceSha256: recorded.staticRules.provenanceSha256, staticRefs: [...recorded.staticRules.files, ...recorded.staticRules.native], contextual: st.row.loaded },
        catalog,
        current,
        (sha) => core.db.ruleText(sha),
        now,
      )
    : null;
  if (mismatch) {
    const first = !st.row.mismatch;
    st.row.mismatch = mismatch;
    core.db.put(st.row);
    // a warning, not an error: nothing failed, the session waits for a choice (the view's card offers it)
    if (first) core.notice(st, { severity: 'warning', code: 'rules_mismatch', title: `Paused: rules changed (${mismatch.changes.length === 1 ? '1 file' : `${mismatch.changes.length} files`})`, detail: mismatch.changes.map((c) => `${c.change} ${c.relativePath} (${c.scope})`).join('\n') });
    core.emit(st.sessionId, 'mismatch');
    throw new AtriumError('RULE_PROVENANCE_MISMATCH', mismatchMessage(mismatch));
  }
  if (st.row.mismatch) {
    st.row.mismatch = null;
    core.db.put(st.row);
    core.emit(st.sessionId, 'mismatch');
  }
  if (!st.catalog) {
    st.catalog = catalog;
    st.resources = st.pendingResources;
    st.staticSent = splitNative(core, st, current.files, recorded.trust, current.collapsed).sent;
  }
  st.loaded = new Set([...current.files.map((f) => f.file.id), ...st.row.loaded.map((l) => l.id)]);
  st.hookTarget = hookTargetOf(st, recorded);
  if (!st.mcp) st.mcp = await snapshotMcp(core, st, recorded);
  st.snapshotReady = true;
}

/** The snapshot's MCP servers read back from disk (revoked or not; changed ones are withheld with a notice). */
async function snapshotMcp(core: PolicyCore, st: PolicyState, recorded: SnapshotRecord): Promise<ApprovedMcpServer[]> {
  if (!recorded.mcp.passed.length) return [];
  const pinned = new Map(recorded.mcp.passed.map((p) => [p.id, p.digest]));
  const found = await core.deps.hooks.mcpServersAt({ path: st.execWorkspaceDir }, pinned).catch((error) => {
    console.error('[atrium] reading the MCP servers of a session snapshot failed:', error);
    return [] as ApprovedMcpServer[];
  });
  const missing = recorded.mcp.passed.filter((p) => !found.some((s) => s.id === p.id));
  if (missing.length) {
    core.notice(st, {
      severity: 'warning',
      code: 'mcp_withheld',
      title: `${missing.length} MCP server${missing.length === 1 ? '' : 's'} of this session changed since it started and ${missing.length === 1 ? 'is' : 'are'} not passed: ${missing.map((s) => s.name).join(', ')}`,
      detail: 'Approve the new definition and start a new session to use it.',
      link: { tab: 'hooks', ids: missing.map((s) => s.id) },
    });
  }
  return found;
}

/** First start: takes the snapshot (rules, hooks by digest, MCP servers) and records it (never rule bodies). */
async function takeSnapshot(core: PolicyCore, st: PolicyState): Promise<void> {
  const now = new Date().toISOString();
  const catalog = await currentCatalog(core, st, false);
  const current = safeStatic(catalog, st.row.fromDir);
  const hooksApi = core.deps.hooks;
  const listing = await hooksApi.list({ path: st.execWorkspaceDir }, { includeHeldBack: true }).catch((error) => {
    console.error('[atrium] listing hooks for a session snapshot failed:', error);
    return null;
  });
  const approvedMcp = await hooksApi.approvedMcpServers({ path: st.execWorkspaceDir }).catch(() => [] as ApprovedMcpServer[]);
  const { sent, native } = splitNative(core, st, current.files, catalog?.trust ?? 'restricted', current.collapsed);
  const hooks = listing?.hooks ?? [];
  const approvedHooks = hooks.filter((h) => h.state === 'approved' && h.runsOn !== null && h.supported && !h.heldBack);
  const skippedHooks = hooks.filter((h) => h.runsOn !== null && !approvedHooks.includes(h));
  const mcp = splitMcpServers(listing?.mcpServers ?? [], approvedMcp);
  const shown = (h: { source: { scope: string; file: string } }) => (h.source.scope === 'user' ? `~/${h.source.file}` : h.source.file);
  const snapshot: SnapshotRecord = {
    takenAt: now,
    sourceDir: st.row.sourceDir,
    fromDir: st.row.fromDir,
    catalogSha256: catalog?.catalogSha256 ?? '',
    trust: catalog?.trust ?? 'restricted',
    staticRules: { provenanceSha256: current.provenanceSha256, files: refsOf(sent), native: refsOf(native), dropped: dropped(current), delivery: null, sentAt: null },
    hooks: {
      approved: approvedHooks.map((h) => ({ id: h.id, digest: h.digest, event: h.event, runsOn: h.runsOn, matcher: h.matcher, command: h.command, type: h.type, url: h.url, file: shown(h) })),
      skipped: skippedHooks.map((h) => ({ id: h.id, event: h.event, state: h.state, heldBack: h.heldBack, command: h.command, type: h.type, url: h.url, file: shown(h) })),
    },
    mcp: { passed: mcp.passed.map((s) => ({ id: s.id, name: s.name, digest: s.digest })), withheld: mcp.withheld },
  };
  st.row.snapshot = snapshot;
  core.keepTexts(current.files);
  core.db.put(st.row);
  st.catalog = catalog;
  st.resources = st.pendingResources;
  st.staticSent = sent;
  st.loaded = new Set(current.files.map((f) => f.file.id));
  st.hookTarget = hookTargetOf(st, snapshot);
  st.mcp = mcp.passed;
  st.snapshotReady = true;
  reportSnapshot(core, st, snapshot, native);
}

/** What a hook calls, as shown to people: an http hook's `POST <url>`, else its command (null when neither is known). */
export function hookCallText(h: { command: string | null; type?: string; url?: string | null }): string | null {
  if (h.url) return `POST ${h.url}`;
  return h.command;
}

/** The one-line notices of a new snapshot: natively loaded rules, hooks not approved, MCP servers withheld. */
function reportSnapshot(core: PolicyCore, st: PolicyState, snapshot: SnapshotRecord, native: readonly SelectedRule[]): void {
  if (!st.isolation.isolated) core.notice(st, notIsolatedNotice(st.isolation));
  if (native.length) {
    core.notice(st, { severity: 'info', code: 'rules_native', title: `The agent loads ${native.length} rule file${native.length === 1 ? '' : 's'} itself: ${native.map((n) => n.file.relativePath).join(', ')}`, detail: 'Atrium does not send them again.', rules: refsOf(native) });
  }
  const wording = notRunWording(st.isolation);
  const notApproved = snapshot.hooks.skipped.filter((h) => h.state === 'unapproved' || h.state === 'modified' || h.heldBack);
  if (notApproved.length) {
    core.notice(st, {
      severity: 'warning',
      code: 'hooks_skipped',
      title: `${notApproved.length} hook${notApproved.length === 1 ? '' : 's'} ${wording.hooks}: not approved`,
      detail: [...notApproved.map((h) => `${h.event} ${h.file}${hookCallText(h) ? `: ${hookCallText(h)}` : ''} (${h.heldBack ? 'restricted' : h.state})`).slice(0, 20), ...(wording.hooksCaveat ? [wording.hooksCaveat] : [])].join('\n'),
      link: { tab: 'hooks', ids: notApproved.map((h) => h.id) },
    });
  }
  const withheld = snapshot.mcp.withheld;
  if (withheld.length) {
    core.notice(st, {
      severity: 'warning',
      code: 'mcp_withheld',
      title: `${withheld.length} MCP server${withheld.length === 1 ? '' : 's'} ${wording.mcp}: ${withheld.map((s) => s.name).join(', ')}`,
      detail: [...withheld.map((s) => `${s.name}: ${s.reason}`), ...(wording.mcpCaveat ? [wording.mcpCaveat] : [])].join('\n'),
      link: { tab: 'hooks', ids: withheld.map((s) => s.id) },
    });
  }
  core.emit(st.sessionId, 'snapshot');
}

/**
 * Takes the current rules as the session's after a mismatch ("Continue with the current
 * rules"): records the new static provenance (static rules go again with the next prompt), drops
 * changed contextual references (they load again when triggered), clears the mismatch and records
 * a `rules_accepted` notice listing every change. The next attach verifies against these.
 */
export async function acceptCurrentRules(core: PolicyCore, st: PolicyState): Promise<void> {
  const mismatch = st.row.mismatch;
  const snap = st.row.snapshot;
  if (!mismatch || !snap) return;
  const catalog = await currentCatalog(core, st, true);
  const current = safeStatic(catalog, st.row.fromDir);
  const { sent, native } = splitNative(core, st, current.files, snap.trust, current.collapsed);
  snap.staticRules = { provenanceSha256: current.provenanceSha256, files: refsOf(sent), native: refsOf(native), dropped: dropped(current), delivery: null, sentAt: null };
  snap.catalogSha256 = catalog?.catalogSha256 ?? snap.catalogSha256;
  const changedContextual = new Set(mismatch.changes.filter((c) => c.scope === 'contextual').map((c) => c.relativePath));
  st.row.loaded = st.row.loaded.filter((l) => !changedContextual.has(l.relativePath));
  st.row.mismatch = null;
  core.keepTexts(current.files);
  core.db.put(st.row);
  core.notice(st, {
    severity: 'info',
    code: 'rules_accepted',
    // the files say what changed; the provenance digests stay in the session's policy record, not in prose
    title: `Continued with the current rules (${mismatch.changes.length === 1 ? '1 file' : `${mismatch.changes.length} files`} changed)`,
    detail: mismatch.changes.map((c) => `${c.change} ${c.relativePath} (${c.scope})`).join('\n'),
    rules: refsOf(current.files),
  });
  // the session's catalog becomes the current one at the next attach
  st.catalog = null;
  // the current rules load afresh: static rules go with the next prompt (sentAt cleared above), contextual ones when triggered
  st.row.owed = { ...st.row.owed, rules: [], staticAgain: null };
  core.db.put(st.row);
  st.snapshotReady = false;
  core.emit(st.sessionId, 'mismatch');
}

/**
 * A fresh immutable snapshot of the source project's resource bundle (kept as the session's
 * candidate in `st.pendingResources`); returns its rule catalog, or null when the resources are
 * unavailable (logged). `fromDisk` rebuilds the bundle first, so a check never trusts a cache
 * that has not seen an edit yet (file watching may be off or not have fired).
 */
async function currentCatalog(core: PolicyCore, st: PolicyState, fromDisk: boolean): Promise<RuleCatalog | null> {
  const resources = core.deps.resources;
  try {
    if (fromDisk) await resources.refresh(st.row.sourceDir);
    const snapshot = resources.snapshot(await resources.resolve(st.row.sourceDir));
    st.pendingResources = snapshot;
    return snapshot.rules;
  } catch (error) {
    console.error(`[atrium] session ${st.sessionId}: rules of ${st.row.sourceDir} are unavailable:`, error);
    st.pendingResources = null;
    return null;
  }
}

/**
 * Static rules the agent gets from Atrium and those it loads natively (its preset's formats). A
 * kept file whose collapsed twin (`collapsed`, reason `same-file`: `CLAUDE.md -> AGENTS.md`, or
 * `CLAUDE.md` = `@AGENTS.md`) has a native format is native too: the agent reads the same text
 * under the twin's name, so sending it would give the agent one text twice.
 */
export function splitNative(
  core: PolicyCore,
  st: PolicyState,
  files: readonly SelectedRule[],
  trust: SnapshotRecord['trust'] | null,
  collapsed: readonly UnselectedRule[] = [],
): { sent: SelectedRule[]; native: SelectedRule[] } {
  // Gemini CLI loads GEMINI.md only in a folder it trusts, and Atrium forces that trust (geminiIsolation.ts);
  // Codex reads AGENTS.md only where Atrium trusts the workspace (codexIsolation.ts turns project docs off elsewhere)
  const dropsNative = (st.isolation.presetId === 'gemini' && !geminiLoadsRulesFor(core.deps.dataDir, trust)) || (st.isolation.presetId === 'codex' && !codexReadsProjectDocs(trust));
  const formats = dropsNative ? [] : st.isolation.nativeRuleFormats;
  const native = new Set<string>(formats);
  const viaTwin = new Set(collapsed.filter((c) => c.sameAs !== undefined && native.has(c.file.format)).map((c) => c.sameAs));
  const isNative = (f: SelectedRule) => native.has(f.file.format) || viaTwin.has(f.file.relativePath);
  return { sent: files.filter((f) => !isNative(f)), native: files.filter(isNative) };
}

/** `catalog.staticRules(fromDir)`, or an empty selection when there is no catalog or it fails. */
function safeStatic(catalog: RuleCatalog | null, fromDir: string): RuleSelection {
  const empty: RuleSelection = { content: '', files: [], references: [], triggerPaths: [], contentBytes: 0, bodyBytes: 0, maxBytes: null, provenanceSha256: EMPTY_PROVENANCE, dropped: [], collapsed: [] };
  if (!catalog) return empty;
  try {
    return catalog.staticRules(fromDir);
  } catch {
    return empty;
  }
}

function dropped(sel: RuleSelection): Array<{ relativePath: string; reason: string }> {
  return sel.dropped.map((d) => ({ relativePath: d.file.relativePath, reason: d.detail || d.reason }));
}
