import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryBackend, type SafeStoragePort } from '../../../src/main/core/credentials/backend';
import { FileBackend, SafeStorageBackend, CREDENTIALS_FILE, SAFE_CREDENTIALS_FILE } from '../../../src/main/core/credentials/fileBackend';
import { REDACTED, redactSecrets } from '../../../src/main/core/credentials/redact';
import { KeyringBackend } from '../../../src/main/core/credentials/keyringBackend';
import { CredentialStore, openCredentialStore } from '../../../src/main/core/credentials/store';
import { AgentProcess } from '../../../src/main/core/sessions/supervisor';
import { tempDir } from '../../support/tempDir';

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('the file credential backend', () => {
  it('keeps keys in a 0600 file (also when the file existed with wider permissions), with a warning that says so', () => {
    const dir = tempDir('atrium-cred-file-');
    const backend = new FileBackend(dir, 'no OS keychain is available');
    expect(backend.get('provider:a')).toBeNull();
    backend.set('provider:a', 'sk-first-key-123456');
    const file = path.join(dir, CREDENTIALS_FILE);
    expect(mode(file)).toBe(0o600);
    expect(backend.get('provider:a')).toBe('sk-first-key-123456');
    fs.chmodSync(file, 0o644);
    backend.set('provider:b', 'sk-second-key-7890');
    expect(mode(file)).toBe(0o600);
    expect(backend.get('provider:a')).toBe('sk-first-key-123456');
    expect(backend.remove('provider:a')).toBe(true);
    expect(backend.remove('provider:a')).toBe(false);
    expect(backend.get('provider:b')).toBe('sk-second-key-7890');
    expect(backend.info).toMatchObject({ backend: 'file' });
    expect(backend.info.warning).toContain('unencrypted');
    expect(backend.info.warning).toContain(file);
    // no temp files left behind
    expect(fs.readdirSync(dir)).toEqual([CREDENTIALS_FILE]);
  });

  it('refuses to overwrite a malformed file (keys are never silently lost) and names the file and the fix', () => {
    const dir = tempDir('atrium-cred-bad-');
    fs.writeFileSync(path.join(dir, CREDENTIALS_FILE), '{ not json');
    const backend = new FileBackend(dir);
    expect(() => backend.set('provider:a', 'sk-key-123456789')).toThrow(/credentials\.json is not valid JSON.*Fix or delete the file/);
    expect(fs.readFileSync(path.join(dir, CREDENTIALS_FILE), 'utf8')).toBe('{ not json');
  });

  it('ATRIUM_CREDENTIALS=file (prefer: file) opens the file backend', () => {
    const dir = tempDir('atrium-cred-prefer-');
    const store = openCredentialStore(dir, { prefer: 'file' });
    expect(store.info.backend).toBe('file');
    store.set('p', 'sk-preferred-file-key');
    expect(fs.readFileSync(path.join(dir, CREDENTIALS_FILE), 'utf8')).toContain('provider:p');
  });
});

describe('choosing the store', () => {
  it('uses the OS keychain when it answers, else safeStorage with a real keyring behind it, else the 0600 file with the reason', () => {
    const dir = tempDir('atrium-cred-auto-');
    const xor = (b: Buffer) => Buffer.from([...b].map((x) => x ^ 0x33));
    const port = (backend: string): SafeStoragePort => ({ isEncryptionAvailable: () => true, encryptString: (s) => xor(Buffer.from(s)), decryptString: (b) => xor(b).toString(), backend: () => backend });
    const keyring = KeyringBackend.available(dir);
    const plain = openCredentialStore(dir, { prefer: 'auto' });
    const basic = openCredentialStore(dir, { prefer: 'auto', safeStorage: port('basic_text') });
    const real = openCredentialStore(dir, { prefer: 'auto', safeStorage: port('gnome_libsecret') });
    if (keyring.ok) {
      // this machine has a keychain: everything shares it
      for (const store of [plain, basic, real]) expect(store.info.backend).toBe('keychain');
    } else {
      expect(plain.info.backend).toBe('file');
      expect(plain.info.warning).toContain(keyring.reason);
      // Electron without a real keyring ("basic_text") encrypts with a hard-coded key: the file, honestly labelled, is no worse
      expect(basic.info.backend).toBe('file');
      expect(real.info.backend).toBe('safeStorage');
    }
  });
});

describe('the safeStorage backend', () => {
  it('stores only ciphertext, in a 0600 file', () => {
    const dir = tempDir('atrium-cred-safe-');
    // a reversible stand-in for Electron safeStorage (the real one is OS-keyed)
    const port: SafeStoragePort = {
      isEncryptionAvailable: () => true,
      encryptString: (s) => Buffer.from([...Buffer.from(s)].map((b) => b ^ 0x5a)),
      decryptString: (b) => Buffer.from([...b].map((x) => x ^ 0x5a)).toString(),
    };
    const backend = new SafeStorageBackend(dir, port);
    backend.set('provider:x', 'sk-safe-storage-secret');
    const file = path.join(dir, SAFE_CREDENTIALS_FILE);
    expect(mode(file)).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).not.toContain('sk-safe-storage-secret');
    expect(backend.get('provider:x')).toBe('sk-safe-storage-secret');
    expect(backend.info.warning).toBeNull();
  });
});

describe('redaction', () => {
  it('replaces every known key, longest first, and ignores too-short values', () => {
    expect(redactSecrets('key=sk-abcdefgh and sk-abcdefgh-long; x=short', ['sk-abcdefgh', 'sk-abcdefgh-long', 'short'])).toBe(`key=${REDACTED} and ${REDACTED}; x=short`);
  });

  it('the store redacts old and new keys after a rotation', () => {
    const store = new CredentialStore(new MemoryBackend());
    store.set('p', 'sk-old-key-11111111');
    store.set('p', 'sk-new-key-22222222');
    expect(store.redact('old sk-old-key-11111111 new sk-new-key-22222222')).toBe(`old ${REDACTED} new ${REDACTED}`);
  });

  it("an agent process's stderr tail never shows a key it printed, even split across writes", async () => {
    const key = 'sk-ant-stderr-leak-0123456789';
    const script = `process.stderr.write(${JSON.stringify(`auth failed for ${key.slice(0, 10)}`)}); setTimeout(() => { process.stderr.write(${JSON.stringify(`${key.slice(10)} at endpoint\n`)}); }, 50);`;
    const proc = AgentProcess.spawn({ command: process.execPath, args: ['-e', script], cwd: process.cwd(), env: { PATH: process.env.PATH ?? '' }, redact: [key] });
    await proc.exited;
    expect(proc.stderr.text()).toContain(`auth failed for ${REDACTED} at endpoint`);
    expect(proc.stderr.text()).not.toContain(key);
  });
});
