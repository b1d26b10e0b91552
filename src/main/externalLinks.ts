import type { Shell } from 'electron';
import { classifyLink } from '../shared/externalLink';
import { AtriumError } from '../shared/errors';
import type { CallContext } from './core/dispatcher';
import type { HostHandlers } from './core/handlers';

/**
 * Throws FORBIDDEN_SENDER unless the request comes from one of the desktop app's own windows
 * (`electron:<id>`) or from this process (`caller` null). The desktop's pickup server hands the
 * same dispatcher to browser tabs (`ws-…`); a tab must not make the desktop open URLs or restart.
 */
export function requireDesktopWindow(context: CallContext, what: string): void {
  if (context.caller === null || context.caller.startsWith('electron:')) return;
  throw new AtriumError('FORBIDDEN_SENDER', `Only the desktop app's own window may ${what}; a browser tab does this itself.`);
}

/**
 * The `app.openExternal` handler: re-checks the URL (the renderer's dialog already classified it;
 * this process trusts nothing the page sends) and gives the WHATWG-normalised form, the one the
 * dialog showed, to `shell.openExternal`. Only http, https and mailto pass (INVALID_PARAMS
 * otherwise); a failure of the operating system's opener becomes INTERNAL with what to do.
 */
export function openExternalHandler(shell: Pick<Shell, 'openExternal'>): NonNullable<HostHandlers['app.openExternal']> {
  return async ({ url }, context) => {
    requireDesktopWindow(context, 'open links');
    const link = classifyLink(url);
    if (!link.openable || link.href === null) {
      throw new AtriumError('INVALID_PARAMS', `Atrium does not open ${link.scheme ? `${link.scheme}: links` : 'relative links'}; copy the link instead.`);
    }
    try {
      await shell.openExternal(link.href);
    } catch (error) {
      throw new AtriumError('INTERNAL', `The system could not open the link (${(error as Error).message}). Copy it and paste it into your browser.`);
    }
    return { opened: true };
  };
}
