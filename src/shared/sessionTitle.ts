import type { Session } from './contract';

/**
 * A session's display title, the one naming rule the UI and the CLI share: its title (yours, else
 * the agent's, trimmed), else "Session in <workspace>". `workspaceName` is the name of the session's
 * workspace; without it (no workspace, or removed) the last segment of the session's folder stands in.
 * Pass the workspace name for a worktree session: its folder is named by the session id.
 */
export function sessionTitle(s: Pick<Session, 'title' | 'cwd'>, workspaceName?: string | null): string {
  return s.title?.trim() || `Session in ${workspaceName || lastSegment(s.cwd)}`;
}

/** Last segment of a `/`- or `\`-separated path (the path itself when it has none). */
function lastSegment(p: string): string {
  const trimmed = p.replace(/[/\\]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1) || p;
}
