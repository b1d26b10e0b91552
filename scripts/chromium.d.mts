/** Where distributions install Chromium (Debian/Ubuntu first), in the order they are tried. */
export const SYSTEM_CHROMIUM_PATHS: readonly string[];
/** The system Chromium (first existing candidate), or undefined for Playwright's own browser. */
export function systemChromium(candidates?: readonly string[]): string | undefined;
