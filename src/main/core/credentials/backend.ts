import type { CredentialStoreInfo } from '../../../shared/contract';

/**
 * Where provider keys are kept. Synchronous, because keys are read at each agent start (so a
 * rotated key is used by the next process) and every backend here answers without waiting:
 * the OS keychain through `@napi-rs/keyring`, Electron `safeStorage`, a 0600 file.
 * Implementations never log or echo a key.
 */
export interface CredentialBackend {
  readonly info: CredentialStoreInfo;
  /** The key stored for `account`, or null. @throws Error when the store cannot be read (locked keychain) */
  get(account: string): string | null;
  /** Stores or replaces the key. @throws Error when the store cannot be written */
  set(account: string, secret: string): void;
  /** Deletes the key; true when one was there. */
  remove(account: string): boolean;
}

/**
 * Electron's `safeStorage` as the shell passes it in (core never imports electron): strings
 * encrypted with a key the OS keeps (Keychain on macOS, DPAPI on Windows, the Secret Service or
 * kwallet on Linux).
 */
export interface SafeStoragePort {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Electron's `getSelectedStorageBackend()` on Linux (`basic_text` means no real keyring); absent elsewhere. */
  backend?(): string;
}

/** A backend in memory (tests, and a store that must not touch the machine). */
export class MemoryBackend implements CredentialBackend {
  readonly info: CredentialStoreInfo = { backend: 'memory', label: 'memory (this process only)', warning: 'Keys are kept in memory only and are lost when Atrium quits.' };
  private readonly keys = new Map<string, string>();

  get(account: string): string | null {
    return this.keys.get(account) ?? null;
  }

  set(account: string, secret: string): void {
    this.keys.set(account, secret);
  }

  remove(account: string): boolean {
    return this.keys.delete(account);
  }
}
