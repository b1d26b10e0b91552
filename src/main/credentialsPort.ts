import { safeStorage } from 'electron';
import type { SafeStoragePort } from './core/credentials/backend';

/**
 * Electron's `safeStorage` as the engine's credential store takes it (the engine never imports
 * electron). Read only when the OS keychain cannot be reached through the keyring binding; on
 * Linux `backend()` reports which secret store Electron found (`basic_text` = none, so the engine
 * falls back to its 0600 file and says so).
 */
export function electronSafeStorage(): SafeStoragePort {
  return {
    isEncryptionAvailable: () => safeStorage.isEncryptionAvailable(),
    encryptString: (plain) => safeStorage.encryptString(plain),
    decryptString: (encrypted) => safeStorage.decryptString(encrypted),
    backend: process.platform === 'linux' ? () => safeStorage.getSelectedStorageBackend() : undefined,
  };
}
