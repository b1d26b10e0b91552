import type { ExtensionCatalog } from '../../extensions/types';
import { toExecutionPath } from './pathMapping';
import type { PolicyCore } from './state';

/**
 * Where a session's workspace commands and skills come from, and where they expand.
 */
export interface SessionCommandSource {
  /** The extensions of the session's snapshot (`from: 'snapshot'`) or of the current bundle (`'current'`). */
  catalog: ExtensionCatalog;
  from: 'snapshot' | 'current';
  /** When the snapshot was taken, or null for the current bundle. */
  takenAt: string | null;
  /** The source project folder (the catalog's workspace; trust is judged there). */
  sourceDir: string;
  /**
   * The workspace folder in the session's execution tree: `@path` references resolve inside it and
   * confirmed shell embeds run in it (a worktree session's own tree, mapped like rule paths, seed §6).
   */
  execDir: string;
}

/**
 * The catalog a session's "/" commands use. A live session's immutable snapshot (later
 * disk edits, plugin toggles or trust changes never alter it); while the snapshot is being taken
 * (a new session: it is taken at creation) this waits for it. A session with no snapshot in this
 * process (after an Atrium restart, before its agent starts again; or when taking it failed) uses
 * the workspace's current bundle, marked `current`: its next agent start verifies the recorded
 * rules and adopts that same bundle as its snapshot.
 * @throws AtriumError from the resources cache when the workspace folder is unusable (current bundle only)
 */
export async function commandSourceOf(core: PolicyCore, session: { id: string; cwd: string; workspaceId: string | null }): Promise<SessionCommandSource> {
  const live = core.states.get(session.id);
  if (live && !live.resources && live.taking) await live.taking.catch(() => undefined);
  const row = live?.row ?? core.rowOf(session);
  const execDir = live?.execWorkspaceDir ?? toExecutionPath(row.sourceDir, { cwd: row.execution.dir, execRoot: row.execution.execRoot, sourceRoot: row.execution.sourceRoot });
  if (live?.resources) {
    return { catalog: live.resources.extensions, from: 'snapshot', takenAt: live.resources.takenAt, sourceDir: row.sourceDir, execDir };
  }
  const catalog = await core.deps.resources.withResources(row.sourceDir, (bundle) => bundle.value('extensions'));
  return { catalog, from: 'current', takenAt: null, sourceDir: row.sourceDir, execDir };
}
