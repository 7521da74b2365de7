// The backend contract against real OpenStack Swift (Debian's 2.30, tempauth, v1 auth).
import { reference } from '../reference/reference.js';
import { describeBackendContract } from './contract.js';
import { swiftFixture } from './reference-fixtures.js';

describeBackendContract('real Swift (v1 auth)', async () => {
  const swift = await reference('swift');
  const u = swift.users.tester;
  // Account counts come through the container updater, which the harness runs every second.
  return { ...(await swiftFixture(swift.authUrl, `${u.account}:${u.user}`, u.key)), usageLagMs: 15_000 };
}, { needs: 'swift' });
