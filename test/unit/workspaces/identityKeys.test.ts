import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathIdentity } from '../../../src/main/core/workspaces/identity';
import { recoverOnDiskKey } from '../../../src/main/core/workspaces/identityMigration';
import { tempDir } from '../../support/tempDir';

const NFC = 'caf\u00e9';
const NFD = 'cafe\u0301';

/** True when this file system keeps NFC and NFD names apart (Linux ext4/tmpfs/btrfs do; APFS does not). */
function distinguishesNormalisation(): boolean {
  const dir = tempDir('atrium-nf-probe-');
  fs.mkdirSync(path.join(dir, NFC));
  try {
    fs.mkdirSync(path.join(dir, NFD));
    return true;
  } catch {
    return false;
  }
}

const distinct = distinguishesNormalisation();

describe.skipIf(!distinct)('identity keys of Unicode names', () => {
  it('pathIdentity keys on the bytes here, and on NFC only where both spellings reach one directory', () => {
    const root = tempDir();
    const nfd = path.join(root, NFD);
    fs.mkdirSync(nfd);
    expect(pathIdentity(nfd)).toBe(nfd); // the NFC spelling names nothing
    fs.mkdirSync(path.join(root, NFC));
    expect(pathIdentity(nfd)).toBe(nfd); // it names another folder
    const other = path.join(root, 'other', NFD);
    fs.mkdirSync(other, { recursive: true });
    fs.symlinkSync(other, path.join(root, 'other', NFC)); // the NFC spelling reaches the very same directory
    expect(pathIdentity(other)).toBe(path.join(root, 'other', NFC));
    expect(pathIdentity(`${nfd}/`)).toBe(nfd);
  });

  it('recoverOnDiskKey: a hinted spelling first, then the key itself, then the single on-disk match, else unchanged', () => {
    const root = tempDir();
    const nfd = path.join(root, NFD);
    fs.mkdirSync(nfd);
    expect(recoverOnDiskKey(path.join(root, NFC))).toBe(nfd);
    expect(recoverOnDiskKey(path.join(root, NFC, 'not-yet'))).toBe(path.join(nfd, 'not-yet'));
    fs.mkdirSync(path.join(root, NFC));
    expect(recoverOnDiskKey(path.join(root, NFC))).toBe(path.join(root, NFC));
    expect(recoverOnDiskKey(path.join(root, NFC), new Map([[path.join(root, NFC), nfd]]))).toBe(nfd);
    expect(recoverOnDiskKey(path.join(root, NFC), new Map([[path.join(root, NFC), nfd]]), { existingFirst: true })).toBe(path.join(root, NFC));
    expect(recoverOnDiskKey('/no/such/place')).toBe('/no/such/place');
  });
});
