import { create } from 'zustand';
import type { AttachedSurface, PermissionItem } from '../../../../shared/contract';

/** Remembered take-overs, newest last; old entries are dropped beyond this many. */
const MAX_REMEMBERED = 500;

interface PermissionTakeOverState {
  /** `<sessionId> <requestId>` of requests the user chose to answer on this surface although another one was asked. */
  takenOver: Record<string, true>;
  takeOver(sessionId: string, requestId: string): void;
}

const keyOf = (sessionId: string, requestId: string) => `${sessionId} ${requestId}`;

/**
 * Requests this page took over ("Answer here instead"), for the page's lifetime, so leaving a
 * session view and coming back keeps the choice. Where a request should be answered is not kept
 * here: the permission item itself records it (`surfaceId`), so a tab opened or reloaded
 * after the request routes it the same way.
 */
export const usePermissionTakeOvers = create<PermissionTakeOverState>((set) => ({
  takenOver: {},
  takeOver(sessionId, requestId) {
    set((s) => ({ takenOver: Object.fromEntries(Object.entries({ ...s.takenOver, [keyOf(sessionId, requestId)]: true as const }).slice(-MAX_REMEMBERED)) }));
  },
}));

/** How this surface shows one pending permission request. */
export type PermissionRoute =
  | { answerHere: true; takenOver: boolean }
  /**
   * Another attached surface was asked: show a one-line notice naming it. `surface` is null while
   * the attached list is loading; `label` is its label, else the one recorded with the request.
   */
  | { answerHere: false; surfaceId: string; surface: AttachedSurface | null; label: string };

/**
 * Decides where a pending request is answered, from the item's recorded target ("a
 * permission request goes to the surface that sent the prompt, else to any attached one"; the
 * engine re-targets it when that surface detaches). Here when: the item names no surface (any, or
 * recorded before targets were kept), or names this one; the user took it over; or the named
 * surface is no longer attached (the engine's re-target is on its way). Elsewhere otherwise.
 *
 * @param here this page's surface id for the session (`surfaceFor`)
 * @param surfaces the session's attached surfaces, or null while not loaded
 */
export function routePermission(
  state: Pick<PermissionTakeOverState, 'takenOver'>,
  sessionId: string,
  item: PermissionItem,
  here: string,
  surfaces: AttachedSurface[] | null,
): PermissionRoute {
  const target = item.surfaceId ?? null;
  if (target === null || target === here) return { answerHere: true, takenOver: false };
  if (state.takenOver[keyOf(sessionId, item.requestId)]) return { answerHere: true, takenOver: true };
  const fallback = item.surfaceLabel ?? 'another surface';
  if (surfaces === null) return { answerHere: false, surfaceId: target, surface: null, label: fallback };
  const surface = surfaces.find((s) => s.surfaceId === target);
  return surface ? { answerHere: false, surfaceId: target, surface, label: surface.label } : { answerHere: true, takenOver: false };
}
