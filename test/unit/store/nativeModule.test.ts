/**
 * A SQLite native module the running runtime cannot load (built for Electron's NODE_MODULE_VERSION,
 * or its build/Release removed by a failed rebuild) is reported as that, with the command that fixes
 * it, never as an unwritable data directory.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/core/migrations';
import { nativeModuleProblem } from '../../../src/main/core/store/database';
import { repoRoot } from '../../support/corpus';
import { tempDir } from '../../support/tempDir';

const compiler = ['cc', 'gcc'].find((c) => spawnSync(c, ['--version'], { stdio: 'ignore' }).status === 0);

/**
 * Compiles a real addon that registers itself with NODE_MODULE_VERSION 999, as a binding built for
 * another runtime does (Node's own node_module struct layout, node.h), so Node refuses it at dlopen.
 */
function foreignAbiBinding(): string {
  const dir = tempDir('atrium-abi-');
  const source = path.join(dir, 'foreign.c');
  fs.writeFileSync(
    source,
    [
      'struct node_module { int nm_version; unsigned int nm_flags; void *nm_dso_handle; const char *nm_filename; void *nm_register_func; void *nm_context_register_func; const char *nm_modname; void *nm_priv; struct node_module *nm_link; };',
      'extern void node_module_register(void *);',
      'static struct node_module m = { 999, 0, 0, "foreign.c", 0, 0, "better_sqlite3", 0, 0 };',
      '__attribute__((constructor)) static void reg(void) { node_module_register(&m); }',
      '',
    ].join('\n'),
  );
  const out = path.join(dir, 'better_sqlite3.node');
  execFileSync(compiler!, ['-shared', '-fPIC', '-o', out, source]);
  return out;
}

describe('opening the database with a native module this runtime cannot load', () => {
  const saved = process.env.ATRIUM_SQLITE_BINDING;
  afterEach(() => {
    if (saved === undefined) delete process.env.ATRIUM_SQLITE_BINDING;
    else process.env.ATRIUM_SQLITE_BINDING = saved;
  });

  it.skipIf(!compiler || process.platform !== 'linux')('a binding built for another NODE_MODULE_VERSION: names the runtime mismatch and `npm rebuild better-sqlite3`, not the data directory', () => {
    process.env.ATRIUM_SQLITE_BINDING = foreignAbiBinding();
    const dataDir = tempDir('atrium-data-');
    let error: (Error & { code?: string }) | undefined;
    try {
      openStore(dataDir).close();
    } catch (e) {
      error = e as Error & { code?: string };
    }
    expect(error?.code).toBe('DB_OPEN_FAILED');
    expect(error?.message).toContain('was built for another runtime (NODE_MODULE_VERSION 999)');
    expect(error?.message).toContain(`cannot be loaded by Node ${process.versions.node} (NODE_MODULE_VERSION ${process.versions.modules})`);
    expect(error?.message).toContain('run `npm rebuild better-sqlite3` in the Atrium checkout');
    expect(error?.message).not.toContain('writable');
  });

  it('a missing ATRIUM_SQLITE_BINDING file is named as such', () => {
    process.env.ATRIUM_SQLITE_BINDING = path.join(tempDir('atrium-abi-'), 'gone.node');
    expect(() => openStore(tempDir('atrium-data-')).close()).toThrowError(/the SQLite binding named by ATRIUM_SQLITE_BINDING is missing/);
  });

  it('better-sqlite3 without build/Release (what a failed Electron rebuild leaves): "no compiled binding" and the rebuild command', () => {
    // A copy of the real package without its build folder, loading the real `bindings` package, so
    // the error is the one the CLI printed after `npm run dist` deleted build/Release.
    const modules = path.join(tempDir('atrium-nobuild-'), 'node_modules');
    const real = path.join(repoRoot, 'node_modules');
    fs.mkdirSync(path.join(modules, 'better-sqlite3'), { recursive: true });
    fs.cpSync(path.join(real, 'better-sqlite3', 'lib'), path.join(modules, 'better-sqlite3', 'lib'), { recursive: true });
    fs.copyFileSync(path.join(real, 'better-sqlite3', 'package.json'), path.join(modules, 'better-sqlite3', 'package.json'));
    for (const dep of ['bindings', 'file-uri-to-path']) fs.symlinkSync(path.join(real, dep), path.join(modules, dep));
    const Database = createRequire(path.join(modules, 'index.js'))('better-sqlite3') as new (file: string) => unknown;
    let thrown: unknown;
    try {
      new Database(':memory:');
    } catch (e) {
      thrown = e;
    }
    expect(String(thrown)).toContain('Could not locate the bindings file');
    const sentence = nativeModuleProblem(thrown);
    expect(sentence).toContain('has no compiled binding (never built, or removed by a failed native rebuild)');
    expect(sentence).toContain('`npm rebuild better-sqlite3`');
  });

  it('file and SQLite errors are not mistaken for a native-module problem (the data-directory hint stays)', () => {
    const file = path.join(tempDir('atrium-data-'), 'not-a-dir');
    fs.writeFileSync(file, '');
    expect(() => openStore(file)).toThrowError(/Check that the data directory is writable/);
    expect(nativeModuleProblem(Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' }))).toBeNull();
  });
});
