import fs from 'node:fs';
import path from 'node:path';
import { shellQuote } from '../../src/main/core/formats/shell/quote';
import { tempDir } from './tempDir';

/** A stand-in Node on a temp PATH folder: see {@link fakeNodeDir}. */
export interface FakeNode {
  /** The folder to put on PATH. */
  dir: string;
  /** The executable itself. */
  file: string;
  /** One line per run: `<ELECTRON_RUN_AS_NODE or "unset">|<arguments joined by spaces>`. */
  log(): string[];
}

/**
 * A folder holding an executable `name` (default `node`) that logs how it was run, then runs the
 * Node running the tests with the same arguments: a Node found on PATH, as the desktop app uses.
 */
export function fakeNodeDir(name = 'node'): FakeNode {
  const dir = tempDir('atrium-fake-node-');
  const file = path.join(dir, name);
  const log = path.join(dir, `${name}.log`);
  fs.writeFileSync(file, `#!/bin/sh\nprintf '%s|%s\\n' "\${ELECTRON_RUN_AS_NODE-unset}" "$*" >> ${shellQuote(log)}\nexec ${shellQuote(process.execPath)} "$@"\n`, { mode: 0o755 });
  return { dir, file, log: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []) };
}
