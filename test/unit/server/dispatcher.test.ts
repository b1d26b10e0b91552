import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveDataDir } from '../../../src/main/core/dataDir';
import { createDispatcher, type Dispatcher } from '../../../src/main/core/dispatcher';
import { createEngine, type Engine } from '../../../src/main/core/engine';
import { resolveStatic } from '../../../src/main/server/static';
import { tempDir } from '../../support/tempDir';

let engine: Engine;
let dispatcher: Dispatcher;
beforeEach(() => {
  engine = createEngine({ dataDir: tempDir() });
  dispatcher = createDispatcher(engine, {
    'app.info': () => ({ version: 't', host: 'browser', dataDir: engine.dataDir, homeDir: '/home/t', capabilities: { nativeFolderPicker: false } }),
    'app.pickFolder': () => {
      throw new Error('secret internals at /x/y.ts:12');
    },
  });
});
afterEach(() => engine.close());

describe('dispatcher', () => {
  it('rejects unknown methods and invalid params with codes, never reaching the engine', async () => {
    expect(await dispatcher.dispatch('workspaces.drop', {})).toEqual({ ok: false, error: { code: 'UNKNOWN_METHOD', message: expect.any(String) } });
    expect(await dispatcher.dispatch('__proto__', {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
    const bad = await dispatcher.dispatch('workspaces.rename', { id: 'x', name: '   ' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS', message: expect.stringContaining('name') } });
  });

  it('reports unexpected errors as INTERNAL without a stack', async () => {
    const res = await dispatcher.dispatch('app.pickFolder', {});
    expect(res).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'Internal error: secret internals at /x/y.ts:12' } });
  });
});

describe('data directory', () => {
  it('prefers the flag, then ATRIUM_DATA_DIR, then Electron userData, then XDG, then ~/.config', () => {
    expect(resolveDataDir({ flag: '/a', env: { ATRIUM_DATA_DIR: '/b' } })).toBe('/a');
    expect(resolveDataDir({ env: { ATRIUM_DATA_DIR: '/b' }, electronUserData: '/c' })).toBe('/b');
    expect(resolveDataDir({ env: {}, electronUserData: '/c' })).toBe('/c');
    expect(resolveDataDir({ env: { XDG_CONFIG_HOME: '/x' } })).toBe('/x/atrium');
    expect(resolveDataDir({ env: {} })).toMatch(/\.config\/atrium$/);
  });
});

describe('static files', () => {
  it('serves files inside the renderer dir only and falls back to index.html for routes', () => {
    const root = tempDir();
    fs.writeFileSync(`${root}/index.html`, '<html>');
    expect(resolveStatic(root, '/')?.file).toBe(`${root}/index.html`);
    expect(resolveStatic(root, '/workspace/abc')?.file).toBe(`${root}/index.html`);
    // traversal is normalised away inside the root: never the real /etc/passwd
    expect(resolveStatic(root, '/../../etc/passwd')?.file).toBe(`${root}/index.html`);
    expect(resolveStatic(root, '/%2e%2e/%2e%2e/etc/passwd')?.file).toBe(`${root}/index.html`);
    expect(resolveStatic(root, '/..%2f..%2fetc%2fhosts')?.file).toBe(`${root}/index.html`);
    expect(resolveStatic(root, '/missing.js')).toBeNull();
  });
});
