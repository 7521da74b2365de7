import { safeStorage } from 'electron';
import { cannotOpen, fileSecretBox, isPlain, schemeOf, sealPlain, type SecretBox } from '../services/secrets.js';

const PREFIX = 'e1:';

/**
 * Whether safeStorage protects anything. On Linux without a keyring Chromium picks `basic_text`,
 * which encrypts with a password written in its source: Chromium calls that unprotected, so do we.
 */
function safeStorageSeals(platform: NodeJS.Platform = process.platform): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false;
  if (platform !== 'linux') return true;
  const backend = safeStorage.getSelectedStorageBackend();
  return backend !== 'basic_text' && backend !== 'unknown';
}

/** Remote credentials sealed by the OS keyring through Electron safeStorage, or in the private file where it seals nothing. */
export function safeStorageBox(platform: NodeJS.Platform = process.platform): SecretBox {
  const sealed = safeStorageSeals(platform);
  return {
    atRest: sealed ? 'keyring' : 'file',
    seal: (plain) => (sealed ? PREFIX + safeStorage.encryptString(plain).toString('base64') : sealPlain(plain)),
    open(value) {
      if (value.startsWith(PREFIX)) {
        if (!safeStorage.isEncryptionAvailable()) throw cannotOpen('the system keyring that encrypted them is not available');
        return decrypt(Buffer.from(value.slice(PREFIX.length), 'base64'));
      }
      if (schemeOf(value) !== undefined) return fileSecretBox.open(value);
      // Before schemes, a value was safeStorage's output where it was available and plain base64
      // where not; a config is JSON, so plain ones start with '{'.
      const bytes = Buffer.from(value, 'base64');
      if (bytes[0] === 0x7b) return bytes.toString('utf8');
      if (!safeStorage.isEncryptionAvailable()) throw cannotOpen('the system keyring that encrypted them is not available');
      return decrypt(bytes);
    },
    isCurrent: (value) => (sealed ? value.startsWith(PREFIX) : isPlain(value)),
  };
}

function decrypt(bytes: Buffer): string {
  try {
    return safeStorage.decryptString(bytes);
  } catch {
    throw cannotOpen('the system keyring could not decrypt them (its key may have changed)');
  }
}
