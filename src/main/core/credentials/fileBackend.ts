import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CredentialStoreInfo } from '../../../shared/contract';
import type { CredentialBackend, SafeStoragePort } from './backend';

/** The file of the plain-file backend inside the data directory. */
export const CREDENTIALS_FILE = 'credentials.json';
/** The file of the Electron `safeStorage` backend (encrypted values) inside the data directory. */
export const SAFE_CREDENTIALS_FILE = 'credentials.safe.json';

/**
 * Reads a `{ account: value }` JSON file; a missing file is empty. A malformed file is not
 * overwritten blindly: it throws with the file and the fix, so keys are never silently lost.
 */
function readMap(file: string): Record<string, string> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}). Fix or delete the file, then enter the keys again.`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${file} is not a JSON object of keys. Fix or delete the file, then enter the keys again.`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

/**
 * Writes the map atomically with mode 0600 from the first byte (a temp file created with that
 * mode, then renamed), and re-asserts 0600 in case the file existed with wider permissions.
 */
function writeMap(file: string, map: Record<string, string>): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeFileSync(fd, `${JSON.stringify(map, null, 2)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}

/**
 * Keys in a plain JSON file readable only by the user (mode 0600): the fallback when no OS
 * keychain answers. Its `info.warning` says so, and every surface shows it where keys are entered.
 */
export class FileBackend implements CredentialBackend {
  readonly info: CredentialStoreInfo;
  readonly file: string;

  constructor(dataDir: string, reason = 'no OS keychain is available') {
    this.file = path.join(dataDir, CREDENTIALS_FILE);
    this.info = {
      backend: 'file',
      label: `${this.file} (mode 0600)`,
      warning: `Keys are stored unencrypted in ${this.file} (readable only by your user, mode 0600) because ${reason}. Anyone who can read your files (another process running as you, an administrator, a backup) can read the keys.`,
    };
  }

  get(account: string): string | null {
    return readMap(this.file)[account] ?? null;
  }

  set(account: string, secret: string): void {
    writeMap(this.file, { ...readMap(this.file), [account]: secret });
  }

  remove(account: string): boolean {
    const map = readMap(this.file);
    if (!(account in map)) return false;
    delete map[account];
    writeMap(this.file, map);
    return true;
  }
}

/**
 * Keys encrypted with Electron `safeStorage` (base64 ciphertext in a 0600 file): the desktop
 * app's store when the OS keychain cannot be reached through the keyring binding.
 */
export class SafeStorageBackend implements CredentialBackend {
  readonly info: CredentialStoreInfo;
  private readonly file: string;

  constructor(dataDir: string, private readonly safe: SafeStoragePort) {
    this.file = path.join(dataDir, SAFE_CREDENTIALS_FILE);
    this.info = { backend: 'safeStorage', label: `${this.file}, encrypted with the OS keychain (Electron safeStorage)`, warning: null };
  }

  get(account: string): string | null {
    const value = readMap(this.file)[account];
    return value === undefined ? null : this.safe.decryptString(Buffer.from(value, 'base64'));
  }

  set(account: string, secret: string): void {
    writeMap(this.file, { ...readMap(this.file), [account]: this.safe.encryptString(secret).toString('base64') });
  }

  remove(account: string): boolean {
    const map = readMap(this.file);
    if (!(account in map)) return false;
    delete map[account];
    writeMap(this.file, map);
    return true;
  }
}
