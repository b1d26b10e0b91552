import type { CredentialStoreInfo } from '../../../shared/contract';
import type { CredentialBackend, SafeStoragePort } from './backend';
import { FileBackend, SafeStorageBackend } from './fileBackend';
import { KeyringBackend } from './keyringBackend';
import { redactSecrets } from './redact';

/** How {@link openCredentialStore} picks a backend. */
export interface CredentialStoreOptions {
  /** A ready backend (tests; takes precedence over everything). */
  backend?: CredentialBackend;
  /** Electron `safeStorage`, passed in by the desktop shell. */
  safeStorage?: SafeStoragePort;
  /**
   * `auto` (default): OS keychain, else `safeStorage` when given and backed by a real keyring,
   * else the 0600 file. `file` forces the file (`ATRIUM_CREDENTIALS=file`).
   */
  prefer?: 'auto' | 'file';
}

/**
 * The one credential store every session of a data directory shares: provider keys by provider
 * id. Keys are read at each agent start, so a rotated key reaches the next process; every key
 * this store has handed out or accepted is remembered (in memory only) so agent stderr and other
 * diagnostics can be redacted of it ({@link redact}).
 */
export class CredentialStore {
  private readonly seen = new Set<string>();

  constructor(readonly backend: CredentialBackend) {}

  /** Where keys live (shown in Settings, `atrium providers list`, next to every key field). */
  get info(): CredentialStoreInfo {
    return this.backend.info;
  }

  /** The provider's key, or null. @throws Error when the store cannot be read */
  get(providerId: string): string | null {
    const key = this.backend.get(accountOf(providerId));
    if (key) this.seen.add(key);
    return key;
  }

  /** Stores or replaces (rotates) the provider's key; the old one stays redacted. @throws Error when the store cannot be written */
  set(providerId: string, key: string): void {
    const old = this.safeGet(providerId);
    if (old) this.seen.add(old);
    this.backend.set(accountOf(providerId), key);
    this.seen.add(key);
  }

  /** Deletes the provider's key; true when one was stored. */
  remove(providerId: string): boolean {
    const old = this.safeGet(providerId);
    if (old) this.seen.add(old);
    return this.backend.remove(accountOf(providerId));
  }

  /** The key or null, never throwing (a locked keychain reads as "no key"). */
  safeGet(providerId: string): string | null {
    try {
      return this.get(providerId);
    } catch {
      return null;
    }
  }

  /** `text` without any key this store has seen in this process. */
  redact(text: string): string {
    return redactSecrets(text, this.seen);
  }

  /** The keys seen so far (for a process's stderr redaction). */
  knownSecrets(): string[] {
    return [...this.seen];
  }
}

/** Keychain account of a provider's key. */
function accountOf(providerId: string): string {
  return `provider:${providerId}`;
}

/**
 * Opens the credential store of `dataDir`: an injected backend; else the OS keychain when it
 * answers (macOS Keychain, Windows Credential Manager, Linux Secret Service), so the CLI, `atrium
 * serve` and the desktop app share keys; else Electron `safeStorage` when the app passes one that
 * has a real keyring behind it; else a 0600 file whose warning says why. `ATRIUM_CREDENTIALS=file`
 * in the environment forces the file.
 */
export function openCredentialStore(dataDir: string, options: CredentialStoreOptions = {}): CredentialStore {
  if (options.backend) return new CredentialStore(options.backend);
  const prefer = options.prefer ?? (process.env.ATRIUM_CREDENTIALS === 'file' ? 'file' : 'auto');
  if (prefer === 'file') return new CredentialStore(new FileBackend(dataDir, 'ATRIUM_CREDENTIALS=file asks for a file'));
  const keyring = KeyringBackend.available(dataDir);
  if (keyring.ok) return new CredentialStore(new KeyringBackend(dataDir));
  const safe = options.safeStorage;
  if (safe && safe.isEncryptionAvailable() && safe.backend?.() !== 'basic_text') return new CredentialStore(new SafeStorageBackend(dataDir, safe));
  return new CredentialStore(new FileBackend(dataDir, keyring.reason));
}
