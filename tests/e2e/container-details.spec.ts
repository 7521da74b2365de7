// A container's lifecycle rules and tags in its details (issue 28), at 1024 px dark and 1400 px
// light: a rule and tags added in the app, still there after a reload, turned off and deleted; a
// rule made with aws-cli shown in words, one the app cannot edit shown read-only and kept as it
// was when a rule is added in the app; a save over a change made elsewhere refused, saying so;
// a Swift connection says why it has neither.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { LocalStoreStatus, LocalUser } from '../../src-shared/contract/local-store.js';
import type { LifecycleView, TagsView } from '../../src-shared/model/container-settings.js';
import { containerWith } from './support/browse-helpers.js';
import { details, expect, openContainer, rpc, test } from './support/fixtures.js';
import { expectReadable } from './support/looks.js';
import { SCREENS } from './support/screens.js';

const containerRow = (page: Page, name: string) =>
  page.getByRole('table', { name: 'Containers' }).getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
const lifecycle = (page: Page) => details(page).getByRole('region', { name: 'Lifecycle' });
const tags = (page: Page) => details(page).getByRole('region', { name: 'Tags' });
const rule = (page: Page, id: string) => lifecycle(page).getByRole('listitem', { name: `Rule ${id}` });

/** aws-cli 2 against the test server's S3 API as the local store's first account. */
async function aws(page: Page, args: string[]): Promise<string> {
  const status = await rpc<LocalStoreStatus>(page, 'localStore.status', {});
  const [user] = await rpc<LocalUser[]>(page, 'localStore.users', {});
  const key = user!.keys[0]!;
  const home = mkdtempSync(join(tmpdir(), 'coffer-e2e-aws-'));
  try {
    return await new Promise((resolve, reject) =>
      execFile(
        'aws',
        ['--endpoint-url', status.s3Endpoint, ...args],
        {
          env: {
            PATH: '/usr/local/bin:/usr/bin:/bin',
            HOME: home,
            AWS_ACCESS_KEY_ID: key.accessKey,
            AWS_SECRET_ACCESS_KEY: key.secretKey,
            AWS_DEFAULT_REGION: 'us-east-1',
            AWS_EC2_METADATA_DISABLED: 'true',
            AWS_PAGER: '',
          },
        },
        (err, stdout, stderr) => (err ? reject(new Error(`aws ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout)),
      ),
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

for (const screen of SCREENS) {
  test.describe(screen.name, () => {
    test.use({ viewport: screen.viewport, colorScheme: screen.colorScheme });

    test('adds a lifecycle rule and tags in the container details; after a reload both are there; the rule turns off and is deleted', async ({ app: page }) => {
      const name = await containerWith(page, 'lc');
      await page.reload();
      // The container's menu opens it with its details in focus.
      await containerRow(page, name).click({ button: 'right' });
      await page.getByRole('menuitem', { name: 'Lifecycle and tags…' }).click();
      const own = details(page).getByRole('group', { name: `Container ${name}` });
      await expect(own).toBeFocused();
      await expect(lifecycle(page)).toContainText('No lifecycle rules: objects stay until someone deletes them.');

      await lifecycle(page).getByRole('button', { name: 'Add rule…' }).click();
      const dialog = page.getByRole('dialog', { name: 'New lifecycle rule' });
      await dialog.getByRole('textbox', { name: 'Rule name' }).fill('expire-logs');
      await dialog.getByRole('textbox', { name: 'Name prefix' }).fill('logs/');
      await dialog.getByRole('textbox', { name: 'Delete objects this many days after upload' }).fill('30');
      await dialog.getByRole('textbox', { name: 'Cancel unfinished uploads this many days after they start' }).fill('0');
      await dialog.getByRole('button', { name: 'Save rule' }).click();
      await expect(dialog.getByRole('alert')).toContainText('Cancel unfinished uploads this many days after they start: a whole number of days, at least 1.');
      await dialog.getByRole('textbox', { name: 'Cancel unfinished uploads this many days after they start' }).fill('2');
      const preview = dialog.getByRole('group', { name: 'What this rule does' });
      await expect(preview).toContainText('Objects under logs/ are deleted 30 days after upload.');
      await expect(preview).toContainText('Unfinished uploads under logs/ are cancelled 2 days after they started.');
      await dialog.getByRole('button', { name: 'Save rule' }).click();
      await expect(dialog).toBeHidden();
      await expect(rule(page, 'expire-logs')).toContainText('Objects under logs/ are deleted 30 days after upload.');
      await expectReadable(rule(page, 'expire-logs').getByText('Objects under logs/ are deleted 30 days after upload.'));

      await tags(page).getByRole('button', { name: 'Edit tags' }).click();
      const form = tags(page).getByRole('form', { name: 'Edit tags' });
      await form.getByRole('button', { name: 'Add tag' }).click();
      await form.getByRole('textbox', { name: 'Tag 1 key' }).fill('project');
      await form.getByRole('textbox', { name: 'Tag 1 value' }).fill('coffer');
      await form.getByRole('button', { name: 'Add tag' }).click();
      await form.getByRole('textbox', { name: 'Tag 2 key' }).fill('aws:owner');
      await form.getByRole('textbox', { name: 'Tag 2 value' }).fill('me');
      await form.getByRole('button', { name: 'Save tags' }).click();
      await expect(form.getByRole('alert')).toContainText('Tag 2: keys starting with aws: are reserved by AWS.');
      await form.getByRole('textbox', { name: 'Tag 2 key' }).fill('owner');
      await form.getByRole('button', { name: 'Save tags' }).click();
      await expect(form).toBeHidden();

      // The address keeps the place: the reload comes back into the container, details and all.
      await page.reload();
      await expect(details(page).getByRole('group', { name: `Container ${name}` })).toBeVisible();
      await expect(rule(page, 'expire-logs')).toContainText('Objects under logs/ are deleted 30 days after upload.');
      await expect(rule(page, 'expire-logs')).toContainText('Unfinished uploads under logs/ are cancelled 2 days after they started.');
      const table = tags(page).getByRole('table', { name: 'Tags' });
      await expect(table.getByRole('row', { name: 'project coffer' })).toBeVisible();
      await expect(table.getByRole('row', { name: 'owner me' })).toBeVisible();
      expect((await rpc<TagsView>(page, 'containers.tags', { account: 'local', container: name })).tags).toEqual([
        { key: 'project', value: 'coffer' },
        { key: 'owner', value: 'me' },
      ]);

      await rule(page, 'expire-logs').getByRole('button', { name: 'Turn off rule expire-logs' }).click();
      await expect(rule(page, 'expire-logs').getByText('Off', { exact: true })).toBeVisible();
      expect((await rpc<LifecycleView>(page, 'containers.lifecycle', { account: 'local', container: name })).rules[0]).toMatchObject({ id: 'expire-logs', enabled: false, expirationDays: 30 });
      await rule(page, 'expire-logs').getByRole('button', { name: 'Delete rule expire-logs' }).click();
      await rule(page, 'expire-logs').getByRole('group', { name: 'Delete rule expire-logs' }).getByRole('button', { name: 'Delete' }).click();
      await expect(lifecycle(page)).toContainText('No lifecycle rules');
      expect((await rpc<LifecycleView>(page, 'containers.lifecycle', { account: 'local', container: name })).rules).toEqual([]);
    });
  });
}

test('a rule made with aws-cli shows in words; one the app cannot edit is read-only and kept as it was when a rule is added in the app', async ({ app: page }) => {
  const name = await containerWith(page, 'lc-cli');
  const config = {
    Rules: [
      { ID: 'tmp-files', Status: 'Enabled', Filter: { Prefix: 'tmp/' }, Expiration: { Days: 7 }, NoncurrentVersionExpiration: { NoncurrentDays: 3 } },
      { ID: 'markers', Status: 'Enabled', Filter: { Prefix: '' }, Expiration: { ExpiredObjectDeleteMarker: true } },
    ],
  };
  await aws(page, ['s3api', 'put-bucket-lifecycle-configuration', '--bucket', name, '--lifecycle-configuration', JSON.stringify(config)]);
  await page.reload();
  await openContainer(page, name);
  await expect(rule(page, 'tmp-files')).toContainText('Objects under tmp/ are deleted 7 days after upload.');
  await expect(rule(page, 'tmp-files')).toContainText('Earlier versions of objects under tmp/ are removed 3 days after a newer version replaced them.');
  await expect(rule(page, 'tmp-files').getByRole('button', { name: 'Edit rule tmp-files' })).toBeVisible();
  const markers = rule(page, 'markers');
  await expect(markers).toContainText('Delete markers with no versions left behind them are removed.');
  await expect(markers).toContainText('Made with another tool');
  await expect(markers.getByRole('button', { name: /^Edit/ })).toHaveCount(0);

  await lifecycle(page).getByRole('button', { name: 'Add rule…' }).click();
  const dialog = page.getByRole('dialog', { name: 'New lifecycle rule' });
  await dialog.getByRole('textbox', { name: 'Rule name' }).fill('uploads');
  await dialog.getByRole('radio', { name: 'Every object in the container' }).check();
  await dialog.getByRole('textbox', { name: 'Cancel unfinished uploads this many days after they start' }).fill('1');
  await dialog.getByRole('button', { name: 'Save rule' }).click();
  await expect(dialog).toBeHidden();
  await expect(rule(page, 'uploads')).toContainText('Unfinished uploads are cancelled 1 day after they started.');

  const after = JSON.parse(await aws(page, ['s3api', 'get-bucket-lifecycle-configuration', '--bucket', name])) as typeof config;
  expect(after.Rules).toEqual([
    config.Rules[0],
    config.Rules[1],
    { ID: 'uploads', Status: 'Enabled', Filter: { Prefix: '' }, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } },
  ]);
});

test('a save over rules changed elsewhere meanwhile is refused, saying so, and the rules as they are now are shown', async ({ app: page }) => {
  const name = await containerWith(page, 'lc-stale');
  await page.reload();
  await openContainer(page, name);
  await expect(lifecycle(page)).toContainText('No lifecycle rules');
  // Behind the app's back: another client adds a rule.
  const { basis } = await rpc<LifecycleView>(page, 'containers.lifecycle', { account: 'local', container: name });
  await rpc(page, 'containers.setLifecycle', {
    account: 'local',
    container: name,
    basis,
    rules: [{ kind: 'fields', id: 'elsewhere', enabled: true, prefix: 'x/', expirationDays: 5, noncurrentDays: null, abortIncompleteDays: null }],
  });
  await lifecycle(page).getByRole('button', { name: 'Add rule…' }).click();
  const dialog = page.getByRole('dialog', { name: 'New lifecycle rule' });
  await dialog.getByRole('textbox', { name: 'Name prefix' }).fill('y/');
  await dialog.getByRole('textbox', { name: 'Delete objects this many days after upload' }).fill('9');
  await dialog.getByRole('button', { name: 'Save rule' }).click();
  await expect(dialog.getByRole('alert')).toContainText('were changed elsewhere since they were shown');
  await expectReadable(dialog.getByRole('alert'));
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(rule(page, 'elsewhere')).toContainText('Objects under x/ are deleted 5 days after upload.');
});

test('on a Swift connection the details say why there are no lifecycle rules or tags', async ({ app: page }) => {
  const status = await rpc<LocalStoreStatus>(page, 'localStore.status', {});
  const [admin] = await rpc<LocalUser[]>(page, 'localStore.users', {});
  const name = await containerWith(page, 'lc-swift');
  const connection = `lc-swift-${Date.now().toString(36)}`;
  const { id } = await rpc<{ id: string }>(page, 'accounts.add', {
    name: connection,
    config: { kind: 'swift', authUrl: status.nativeAuthUrl, auth: { type: 'v1', user: admin!.swiftKeys[0]!.user, key: admin!.swiftKeys[0]!.secretKey } },
  });
  try {
    await page.reload();
    await page.getByRole('navigation', { name: 'Connections' }).getByRole('button', { name: new RegExp(`^${connection}`) }).click();
    await openContainer(page, name);
    await expect(lifecycle(page)).toContainText('Swift has no lifecycle rules: it expires objects one by one (X-Delete-After, given when an object is written)');
    await expect(tags(page)).toContainText('Swift has no container tags: a container carries metadata (X-Container-Meta-*) instead');
    await expect(lifecycle(page).getByRole('button')).toHaveCount(0);
    await expectReadable(lifecycle(page).getByText(/^Swift has no lifecycle rules/));
  } finally {
    await rpc(page, 'accounts.remove', { id });
  }
});
