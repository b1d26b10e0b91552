/**
 * The IPC contract: every request (params and result schemas) and every pushed event, in one place.
 * Electron IPC, the browser-mode WebSocket and the CLI all go through these schemas. A capability
 * adds its own file beside this one and spreads it in below.
 */
import type { z } from 'zod';
import { appEvents, appRequests } from './app';
import { extensionsEvents, extensionsRequests } from './extensions';
import { hooksEvents, hooksRequests } from './hooks';
import { providerEvents, providerRequests } from './providers';
import { permissionsGrantedRequests } from './permissionsGranted';
import { rulesEvents, rulesRequests } from './rules';
import { sessionPolicyEvents, sessionPolicyRequests } from './sessionPolicy';
import { sessionEvents, sessionRequests } from './sessionRequests';
import { settingsEvents, settingsRequests } from './settings';
import { trustEvents, trustRequests } from './trust';
import { workspaceEvents, workspaceRequests } from './workspaces';

export * from './app';
export * from './define';
export * from './extensions';
export * from './hooks';
export * from './providers';
export * from './permissionsGranted';
export * from './rules';
export * from './sessionPolicy';
export * from './sessionRequests';
export * from './sessions';
export * from './settings';
export * from './trust';
export * from './workspaces';

export const requests = {
  ...appRequests,
  ...workspaceRequests,
  ...trustRequests,
  ...rulesRequests,
  ...sessionRequests,
  ...sessionPolicyRequests,
  ...permissionsGrantedRequests,
  ...hooksRequests,
  ...extensionsRequests,
  ...providerRequests,
  ...settingsRequests,
};

export const events = {
  ...appEvents,
  ...workspaceEvents,
  ...trustEvents,
  ...rulesEvents,
  ...sessionEvents,
  ...sessionPolicyEvents,
  ...hooksEvents,
  ...extensionsEvents,
  ...providerEvents,
  ...settingsEvents,
};

export type Requests = typeof requests;
export type Events = typeof events;
export type RequestName = keyof Requests;
export type EventName = keyof Events;
export type ParamsOf<M extends RequestName> = z.input<Requests[M]['params']>;
export type ResultOf<M extends RequestName> = z.output<Requests[M]['result']>;
export type PayloadOf<E extends EventName> = z.output<Events[E]['payload']>;

/** All request names, for binding every one of them (the Electron shell's test asserts this). */
export const REQUEST_NAMES = Object.keys(requests) as RequestName[];
export const EVENT_NAMES = Object.keys(events) as EventName[];

/** Wire frames of the WebSocket transport (the Electron transport uses one IPC channel per request). */
export type ClientFrame = { id: number; method: string; params: unknown };
export type ServerFrame =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { code: string; message: string } }
  | { event: string; payload: unknown };

/** IPC channel names used by the Electron shell and preload. */
export const IPC_REQUEST_PREFIX = 'atrium:req:';
export const IPC_EVENT_CHANNEL = 'atrium:event';
