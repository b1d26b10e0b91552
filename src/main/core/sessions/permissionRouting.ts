/**
 * A live session's permission requests beyond the broker's bookkeeping: asking (state changes, the
 * announcement, a hook's auto-answer), which attached surface a request is addressed to (the route
 * recorded with it, re-targeting when that surface detaches), and the `permissionRequested` push
 * that tells surfaces (CLI pickup, desktop notifications) about one.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { Session } from '../../../shared/contract';
import type { EventBus } from '../events/bus';
import type { Store } from '../store/database';
import type { JournalEvent, PermissionRoute } from './events';
import type { PermissionBroker } from './permissions';
import { SessionTables } from './tables';

/** Only the fields a route records (an attached surface also carries `via` and `attachedAt`). */
export function toRoute(target: PermissionRoute): PermissionRoute {
  return { surfaceId: target.surfaceId, label: target.label, kind: target.kind };
}

/**
 * The route of a new permission request: what `pick` answers for the running prompt's surface
 * (that one if still attached, else the earliest attached), or null (any surface). A failing
 * `pick` is logged and means any surface.
 */
export function permissionRoute(pick: ((sessionId: string, promptSurfaceId: string | null) => PermissionRoute | null) | undefined, sessionId: string, promptSurfaceId: string | null): PermissionRoute | null {
  try {
    const target = pick?.(sessionId, promptSurfaceId) ?? null;
    return target ? toRoute(target) : null;
  } catch (error) {
    console.error('[atrium] routing a permission request failed:', error);
    return null;
  }
}

/** Pushes `permissionRequested` for a recorded pending request, addressed as its item says (nothing when it is not pending). */
export function announcePermission(store: Store, bus: EventBus, session: { id: string; title: string | null }, requestId: string): void {
  const item = SessionTables.of(store.db).itemByRef(session.id, requestId);
  if (item?.kind !== 'permission' || item.state !== 'pending') return;
  bus.emit('permissionRequested', { sessionId: session.id, sessionTitle: session.title, permission: item, surfaceId: item.surfaceId ?? null });
}

/** What re-targeting needs of a live session. */
export interface RetargetTarget {
  id: string;
  store: Store;
  /** Ids of the requests still waiting for an answer. */
  pendingIds(): string[];
  append(event: JournalEvent): void;
  announce(requestId: string): void;
}

/**
 * Re-targets the pending requests addressed to `fromSurfaceId` to `to` (any surface when null).
 * Each change is journaled first (`permission_routed`), then announced again with its new target;
 * a request whose change cannot be recorded keeps its route (logged).
 * @returns how many requests were re-targeted
 */
export function retargetPermissions(s: RetargetTarget, fromSurfaceId: string, to: PermissionRoute | null): number {
  const route = to ? toRoute(to) : null;
  if (route?.surfaceId === fromSurfaceId) return 0;
  const tables = SessionTables.of(s.store.db);
  let moved = 0;
  for (const requestId of s.pendingIds()) {
    const item = tables.itemByRef(s.id, requestId);
    if (item?.kind !== 'permission' || item.state !== 'pending' || item.surfaceId !== fromSurfaceId) continue;
    try {
      s.append({ kind: 'permission_routed', data: { requestId, route, reason: `surface ${fromSurfaceId} detached` } });
    } catch (error) {
      console.error('[atrium] recording a permission re-target failed:', error);
      continue;
    }
    moved += 1;
    s.announce(requestId);
  }
  return moved;
}

/**
 * Re-targets one pending request to `to` because a person chose to answer it there ("Answer here
 * instead"): journaled (`permission_routed`, so every surface's copy of the item follows and the
 * surface asked before shows a notice instead of buttons), then announced again. The caller
 * flushes the journal before reading the item.
 * @returns false when the request is not pending (answered, withdrawn)
 */
export function retargetRequest(s: RetargetTarget, requestId: string, to: PermissionRoute): boolean {
  const item = SessionTables.of(s.store.db).itemByRef(s.id, requestId);
  if (item?.kind !== 'permission' || item.state !== 'pending' || !s.pendingIds().includes(requestId)) return false;
  if (item.surfaceId !== to.surfaceId) {
    s.append({ kind: 'permission_routed', data: { requestId, route: toRoute(to), reason: `taken over by ${to.label}` } });
    s.announce(requestId);
  }
  return true;
}

/** What asking needs of a live session, read at each use. */
export interface AskTarget {
  agentSessionId: string | null;
  broker: PermissionBroker;
  /** True while a prompt's turn runs. */
  turnRunning(): boolean;
  state(): Session['state'];
  setState(state: Session['state']): void;
  announce(requestId: string): void;
  /** The permission hooks' answer (an option id), or null to ask the user. */
  autoAnswer(request: acp.RequestPermissionRequest): Promise<string | null>;
}

/**
 * Answers the agent's `session/request_permission`: records the request (a request for another
 * session is cancelled at once), marks a running turn `awaiting_permission`, announces it, lets the
 * hooks answer it (a failing hook is logged and the user asked), and waits for the answer; the turn
 * is `busy` again once no request is left.
 */
export async function askPermission(s: AskTarget, p: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
  if (p.sessionId !== s.agentSessionId) return { outcome: { outcome: 'cancelled' } };
  let requestId = '';
  const response = s.broker.ask(p, signal, (id) => (requestId = id));
  if (s.turnRunning()) s.setState('awaiting_permission');
  s.announce(requestId);
  try {
    const auto = await s.autoAnswer(p);
    if (auto && s.broker.ids().includes(requestId)) s.broker.answer(requestId, auto, 'hook');
  } catch (error) {
    console.error('[atrium] onPermissionRequest hook failed:', error);
  }
  const answer = await response;
  if (s.broker.count === 0 && s.turnRunning() && s.state() === 'awaiting_permission') s.setState('busy');
  return answer;
}
