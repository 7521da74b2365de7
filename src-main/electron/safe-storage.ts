import { safeStorage } from 'electron';
import type { SecretBox } from '../services/secrets.js';

/** Remote credentials sealed by the OS keychain (Electron safeStorage). */
export function safeStorageBox(): SecretBox {
  const available = safeStorage.isEncryptionAvailable();
  return {
    encrypted: available,
    seal: (plain) => (available ? safeStorage.encryptString(plain).toString('base64') : Buffer.from(plain, 'utf8').toString('base64')),
    open: (sealed) => (available ? safeStorage.decryptString(Buffer.from(sealed, 'base64')) : Buffer.from(sealed, 'base64').toString('utf8')),
  };
}
