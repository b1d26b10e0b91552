import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitCommandLine } from '../../../src/main/core/sessions/commandLine';
import { confinePath } from '../../../src/main/core/sessions/confine';
import { readTextSlice, writeTextAtomic } from '../../../src/main/core/sessions/fsMethods';
import { ByteRing } from '../../../src/main/core/sessions/ringBuffer';
import { tempDir } from '../../support/tempDir';

describe('splitCommandLine', () => {
  it('splits words and honours quotes and escapes', () => {
    expect(splitCommandLine(`node --import tsx "a b.ts" 'c d' e\\ f ""`)).toEqual(['node', '--import', 'tsx', 'a b.ts', 'c d', 'e f', '']);
    expect(splitCommandLine('  x   y ')).toEqual(['x', 'y']);
    expect(() => splitCommandLine('"open')).toThrow(/Unterminated/);
  });
});

describe('ByteRing', () => {
  it('keeps the newest bytes within capacity and drops a cut character', () => {
    const ring = new ByteRing(8);
    ring.push('hello ');
    ring.push('world!');
    expect(ring.text()).toBe('o world!');
    expect(ring.truncated).toBe(true);
    const utf = new ByteRing(4);
    utf.push('aé€'); // 1 + 2 + 3 bytes: the é is cut in half
    expect(utf.text()).toBe('€');
    const big = new ByteRing(4);
    big.push(Buffer.from('0123456789'));
    expect([big.text(), big.length]).toEqual(['6789', 4]);
  });
});

describe('confinePath', () => {
  it('allows paths under the roots, refuses others and symlink escapes, naming the path', () => {
    const root = tempDir();
    const outside = tempDir();
    fs.mkdirSync(path.join(root, 'a'));
    fs.symlinkSync(outside, path.join(root, 'out'));
    fs.symlinkSync(path.join(root, 'a'), path.join(root, 'in'));
    expect(confinePath(path.join(root, 'a/new/file.txt'), [root])).toBe(path.join(root, 'a/new/file.txt'));
    expect(confinePath(path.join(root, 'in/x.txt'), [root])).toBe(path.join(root, 'a/x.txt'));
    expect(confinePath(path.join(outside, 'x'), [root, outside])).toBe(path.join(outside, 'x'));
    expect(() => confinePath(path.join(root, 'out/x.txt'), [root])).toThrow(`Refused to access "${path.join(root, 'out/x.txt')}" (resolves to "${path.join(outside, 'x.txt')}")`);
    expect(() => confinePath(`${root}/../escape`, [root])).toThrow(/outside the session folder/);
    expect(() => confinePath('relative/x', [root])).toThrow(/must be absolute/);
    expect(() => confinePath(`${root}-sibling/x`, [root])).toThrow(/outside/);
  });
});

describe('file methods', () => {
  it('reads line/limit slices and writes atomically, keeping permissions', () => {
    const dir = tempDir();
    const file = path.join(dir, 'f.txt');
    fs.writeFileSync(file, 'a\nb\nc\nd');
    expect(readTextSlice(file)).toBe('a\nb\nc\nd');
    expect(readTextSlice(file, 2, 2)).toBe('b\nc\n');
    expect(readTextSlice(file, 4, 10)).toBe('d');
    expect(readTextSlice(file, null, 1)).toBe('a\n');
    expect(readTextSlice(file, 9)).toBe('');
    expect(() => readTextSlice(path.join(dir, 'missing'))).toThrow(/does not exist/);
    expect(() => readTextSlice(dir)).toThrow(/not a file/);
    fs.chmodSync(file, 0o640);
    writeTextAtomic(file, 'new');
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
    writeTextAtomic(path.join(dir, 'deep/er/g.txt'), 'x');
    expect(fs.readFileSync(path.join(dir, 'deep/er/g.txt'), 'utf8')).toBe('x');
    expect(fs.readdirSync(dir).sort()).toEqual(['deep', 'f.txt']);
    expect(() => writeTextAtomic(dir, 'x')).toThrow(/is a folder/);
  });
});
