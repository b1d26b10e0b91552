import { create } from 'zustand';
import type { AttachedSurface, PermissionItem } from '../../../../shared/contract';
import type { AtriumClient } from '../../api/client';

/** Remembered targets, newest last; old entries are dropped beyond this many. */
const MAX_REMEMBERED = 500;

interface PermissionTargetsState {
  /** `<sessionId> <requestId>` → the surface that should answer (null = any surface). */
  targets: Record<string, string | null>;
  /** Requests the user chose to answer on this surface although another one was asked. */
  takenOver: Record<string, true>;
  takeOver(sessionId: string, requestId: string): void;
}

const keyOf = (sessionId: string, requestId: string) => `${sessionId} ${requestId}`;

/**
 * Where each permission request of this page's sessions should be answered, as the engine's
 * `permissionRequested` events said (issue 8: "a permission request goes to the surface that sent
 * the prompt, else to any attached one"). The transcript item itself does not carry the target, so
 * a request this page never saw an event for (opened after a reload) has no entry and is
 * answerable here.
 */
export const usePermissionTargets = create<PermissionTargetsState>((set) => ({
  targets: {},
  takenOver: {},
  takeOver(sessionId, requestId) {
    set((s) => ({ takenOver: { ...s.takenOver, [keyOf(sessionId, requestId)]: true } }));
  },
}));

const tracked = new WeakSet<AtriumClient>();

/**
 * Starts recording `permissionRequested` targets for every session (once per client, for the
 * page's lifetime, so leaving a session view and coming back keeps them). `onRequest` lets the
 * open session view add the request at once, before the batched transcript delta arrives.
 */
export function trackPermissionTargets(client: AtriumClient): void {
  if (tracked.has(client)) return;
  tracked.add(client);
  client.on('permissionRequested', ({ sessionId, permission, surfaceId }) => {
    usePermissionTargets.setState((s) => {
      const entries = Object.entries({ ...s.targets, [keyOf(sessionId, permission.requestId)]: surfaceId ?? null });
      return { targets: Object.fromEntries(entries.slice(-MAX_REMEMBERED)) };
    });
  });
}

/** How this surface shows one pending permission request. */
export type PermissionRoute =
  | { answerHere: true; takenOver: boolean }
  /** Another attached surface was asked: show a one-line notice naming it (`surface` is null while the attached list is loading). */
  | { answerHere: false; surfaceId: string; surface: AttachedSurface | null };

/**
 * Decides where a pending request is answered. Here when: the engine named no surface, or named
 * this one; this page never saw the request's event; the user took it over; or the named surface
 * is no longer attached (its tab closed: then any attached surface may answer). Elsewhere otherwise.
 *
 * @param here this page's surface id for the session (`surfaceFor`)
 * @param surfaces the session's attached surfaces, or null while not loaded
 */
export function routePermission(
  state: Pick<PermissionTargetsState, 'targets' | 'takenOver'>,
  sessionId: string,
  item: PermissionItem,
  here: string,
  surfaces: AttachedSurface[] | null,
): PermissionRoute {
  const key = keyOf(sessionId, item.requestId);
  const target = state.targets[key];
  if (target === undefined || target === null || target === here) return { answerHere: true, takenOver: false };
  if (state.takenOver[key]) return { answerHere: true, takenOver: true };
  if (surfaces === null) return { answerHere: false, surfaceId: target, surface: null };
  const surface = surfaces.find((s) => s.surfaceId === target);
  return surface ? { answerHere: false, surfaceId: target, surface } : { answerHere: true, takenOver: false };
}
