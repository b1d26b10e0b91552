import { z } from 'zod';
import { defineRequests } from './define';

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
});
