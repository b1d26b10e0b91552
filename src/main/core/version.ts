/** Atrium's version, injected at build time from package.json; "dev" when running from source. */
declare const __ATRIUM_VERSION__: string | undefined;
export const APP_VERSION: string = typeof __ATRIUM_VERSION__ === 'string' ? __ATRIUM_VERSION__ : 'dev';
