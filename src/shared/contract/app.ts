import { z } from 'zod';
import { isOpenableUrl } from '../externalLink';
import { defineEvents, defineRequests } from './define';

/** Which host the renderer runs in; decides e.g. native folder picker vs. a path field. */
export const AppInfo = z.object({
  version: z.string(),
  host: z.enum(['electron', 'browser']),
  dataDir: z.string(),
  /** The user's home directory, for shortening paths in the UI (`~/src/x`). */
  homeDir: z.string(),
  capabilities: z.object({ nativeFolderPicker: z.boolean() }),
});
export type AppInfo = z.infer<typeof AppInfo>;

/**
 * The desktop app's self-update (electron-updater 6.8), as the renderer shows it:
 * `disabled` (development build, turned off by the environment, or a build without an update
 * feed; `reason` says which), `idle` (no check running, nothing newer found), `checking`,
 * `available` (a newer version was found, download starting), `downloading` (`percent` 0–100),
 * `ready` (downloaded; installs on quit or on "Restart"), `error` (the last check or download
 * failed; the next periodic check retries). Browser mode never has one.
 */
export const UpdateState = z.discriminatedUnion('state', [
  z.object({ state: z.literal('disabled'), reason: z.string() }),
  z.object({ state: z.literal('idle') }),
  z.object({ state: z.literal('checking') }),
  z.object({ state: z.literal('available'), version: z.string() }),
  z.object({ state: z.literal('downloading'), version: z.string(), percent: z.number().min(0).max(100) }),
  z.object({ state: z.literal('ready'), version: z.string() }),
  z.object({ state: z.literal('error'), message: z.string() }),
]);
export type UpdateState = z.infer<typeof UpdateState>;

/** At most this many characters of a link are accepted for opening (browsers cap addresses near 2 MB; agents' links are short). */
const MAX_URL_CHARS = 8192;

export const appRequests = defineRequests({
  'app.info': {
    description: 'Version, host kind, data directory and host capabilities.',
    params: z.object({}),
    result: AppInfo,
  },
  'app.pickupServer': {
    description:
      'Desktop app only: starts (enable) or stops the browser server on demand so a session can be picked up from a browser tab; returns its URL with the token, or null when stopped.',
    params: z.object({ enable: z.boolean() }),
    result: z.object({ url: z.string().nullable() }),
  },
  'app.pickFolder': {
    description: 'Opens the native folder picker (Electron only); null when cancelled.',
    params: z.object({ title: z.string().optional() }),
    result: z.object({ path: z.string().nullable() }),
  },
  'app.openExternal': {
    description:
      'Desktop app only: opens an http, https or mailto URL with the operating system (after the user confirmed it in the link dialog); any other scheme is refused.',
    params: z.object({
      url: z
        .string()
        .max(MAX_URL_CHARS)
        .refine(isOpenableUrl, { message: 'Only absolute http, https and mailto links are opened; copy other links instead.' }),
    }),
    result: z.object({ opened: z.literal(true) }),
  },
  'app.updateStatus': {
    description: 'Desktop app only: where the self-update stands (see UpdateState).',
    params: z.object({}),
    result: UpdateState,
  },
  'app.installUpdate': {
    description: 'Desktop app only: quits and installs the downloaded update; refused unless the update is ready.',
    params: z.object({}),
    result: z.object({ restarting: z.literal(true) }),
  },
});

export const appEvents = defineEvents({
  appUpdate: {
    description: 'Desktop app only: the self-update moved to a new state. Sent to the app\'s own windows, never to browser tabs.',
    payload: UpdateState,
  },
});
