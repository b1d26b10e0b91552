import crypto from 'node:crypto';
import { Entry } from '@napi-rs/keyring';
import type { CredentialStoreInfo } from '../../../shared/contract';
import type { CredentialBackend } from './backend';

/** The keychain service name Atrium's entries are filed under. */
export const KEYRING_SERVICE = 'Atrium';

function platformLabel(): string {
  if (process.platform === 'darwin') return 'macOS Keychain';
  if (process.platform === 'win32') return 'Windows Credential Manager';
  return 'Secret Service keyring (GNOME Keyring, KWallet)';
}

/**
 * Keys in the OS keychain through `@napi-rs/keyring` 2.1 (macOS Keychain, Windows Credential
 * Manager, the Secret Service on Linux, never the kernel keyring). Accounts are prefixed with a hash of the data directory,
 * so two Atrium data directories (a test, a second profile) never share keys.
 */
export class KeyringBackend implements CredentialBackend {
  readonly info: CredentialStoreInfo = { backend: 'keychain', label: platformLabel(), warning: null };
  private readonly prefix: string;

  constructor(dataDir: string) {
    this.prefix = crypto.createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
  }

  private entry(account: string): Entry {
    // Linux: only the Secret Service. The binding's default falls back to the kernel keyring
    // (keyutils), which forgets keys at logout or reboot and is not what a user calls a keychain.
    return new Entry(KEYRING_SERVICE, `${this.prefix}/${account}`, { linux: { store: 'secret-service' } });
  }

  get(account: string): string | null {
    return this.entry(account).getPassword() ?? null;
  }

  set(account: string, secret: string): void {
    this.entry(account).setPassword(secret);
  }

  remove(account: string): boolean {
    try {
      return this.entry(account).deletePassword();
    } catch {
      return false;
    }
  }

  /**
   * Whether the keychain answers here: writes, reads back and deletes a probe entry. False on a
   * Linux without a Secret Service (no D-Bus session, a locked or missing keyring), where the
   * binding fails with "Couldn't access platform storage".
   */
  static available(dataDir: string): { ok: true } | { ok: false; reason: string } {
    const backend = new KeyringBackend(dataDir);
    const probe = `probe-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
    try {
      backend.set(probe, 'atrium-probe');
      const back = backend.get(probe);
      backend.remove(probe);
      return back === 'atrium-probe' ? { ok: true } : { ok: false, reason: 'the keychain did not return what was written' };
    } catch (error) {
      return { ok: false, reason: `the OS keychain cannot be reached (${(error as Error).message})` };
    }
  }
}
