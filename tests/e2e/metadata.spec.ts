// The metadata editor in the details panel: standard headers and user metadata, validated against
// the native API's limits before saving, saved as a whole set and shown as saved.
import { details, expect, openContainer, row, rpc, test } from './support/fixtures.js';
import { EDITS } from './support/seed-data.js';

test('edits content type, headers and user metadata, and shows the saved values', async ({ app: page }) => {
  await openContainer(page, EDITS);
  await row(page, 'report.pdf').click();
  const panel = details(page);
  const prop = (label: string) => panel.getByRole('table', { name: 'Properties' }).getByRole('row', { name: new RegExp(`^${label} `) }).getByRole('cell');
  await expect(prop('Cache-Control')).toHaveText('max-age=60');
  await panel.getByRole('button', { name: 'Edit metadata' }).click();

  const form = panel.getByRole('form', { name: 'Edit metadata' });
  await expect(form.getByRole('textbox', { name: 'Content type' })).toHaveValue('application/pdf');
  await expect(form.getByRole('textbox', { name: 'Cache-Control' })).toHaveValue('max-age=60');
  await expect(form.getByRole('textbox', { name: 'Metadata name 1' })).toHaveValue('author');
  await expect(form.getByRole('textbox', { name: 'Metadata value 2' })).toHaveValue('draft');

  await form.getByRole('textbox', { name: 'Content type' }).fill('application/x-pdf');
  await form.getByRole('textbox', { name: 'Content-Disposition' }).fill('attachment; filename="report.pdf"');
  await form.getByRole('textbox', { name: 'Cache-Control' }).fill('');
  await form.getByRole('textbox', { name: 'Content-Encoding' }).fill('identity');
  await form.getByRole('textbox', { name: 'Metadata value 1' }).fill('cy');
  await form.getByRole('button', { name: 'Remove metadata 2' }).click();
  await form.getByRole('button', { name: 'Add metadata' }).click();
  await form.getByRole('textbox', { name: 'Metadata name 2' }).fill('Reviewed-By');
  await form.getByRole('textbox', { name: 'Metadata value 2' }).fill('dee');
  // What the user sees in the form just before saving is what must be saved.
  await expect(form.getByRole('textbox', { name: 'Content-Encoding' })).toHaveValue('identity');
  await expect(form.getByRole('textbox', { name: 'Cache-Control' })).toHaveValue('');
  await form.getByRole('button', { name: 'Save metadata' }).click();

  await expect(form).toBeHidden();
  await expect(prop('Content type')).toHaveText('application/x-pdf');
  await expect(prop('Content-Disposition')).toHaveText('attachment; filename="report.pdf"');
  await expect(prop('Content-Encoding')).toHaveText('identity');
  await expect(panel.getByRole('table', { name: 'Properties' }).getByRole('row', { name: /^Cache-Control / })).toHaveCount(0);
  const meta = panel.getByRole('table', { name: 'Metadata' });
  await expect(meta.getByRole('row', { name: 'author cy' })).toBeVisible();
  await expect(meta.getByRole('row', { name: 'reviewed-by dee' })).toBeVisible();
  await expect(meta.getByRole('row', { name: /^stage/ })).toHaveCount(0);

  // The server holds the whole new set.
  const head = await rpc<{ contentType: string; meta: Record<string, string> }>(page, 'browse.head', { account: 'local', container: EDITS, name: 'report.pdf' });
  expect(head.contentType).toBe('application/x-pdf');
  expect(head.meta).toEqual({ author: 'cy', 'reviewed-by': 'dee' });
});

test('refuses invalid metadata before saving and says why', async ({ app: page }) => {
  await openContainer(page, EDITS);
  await row(page, 'limits.txt').click();
  const panel = details(page);
  await expect(panel.getByText('No user metadata')).toBeVisible();
  await panel.getByRole('button', { name: 'Edit metadata' }).click();
  const form = panel.getByRole('form', { name: 'Edit metadata' });
  await form.getByRole('button', { name: 'Add metadata' }).click();
  await form.getByRole('textbox', { name: 'Metadata name 1' }).fill('bad name');
  await form.getByRole('textbox', { name: 'Metadata value 1' }).fill('x'.repeat(257));
  await form.getByRole('button', { name: 'Add metadata' }).click();
  await form.getByRole('textbox', { name: 'Metadata name 2' }).fill('n'.repeat(129));
  await form.getByRole('textbox', { name: 'Content type' }).fill('');
  await form.getByRole('button', { name: 'Save metadata' }).click();

  const alert = form.getByRole('alert');
  await expect(alert).toContainText('Enter a content type.');
  await expect(alert).toContainText('Metadata 1: “bad name” is not a valid name');
  await expect(alert).toContainText('Metadata 1: the value is longer than 256 bytes.');
  await expect(alert).toContainText('Metadata 2: the name is longer than 128 bytes.');
  // Nothing was sent.
  const head = await rpc<{ contentType: string; meta: Record<string, string> }>(page, 'browse.head', { account: 'local', container: EDITS, name: 'limits.txt' });
  expect(head.meta).toEqual({});
  expect(head.contentType).toBe('text/plain');

  // Too many bytes in all (each row within its own limits).
  await form.getByRole('button', { name: 'Cancel' }).click();
  await panel.getByRole('button', { name: 'Edit metadata' }).click();
  for (let i = 1; i <= 17; i++) {
    await form.getByRole('button', { name: 'Add metadata' }).click();
    await page.keyboard.type(`k${i}`);
    await form.getByRole('textbox', { name: `Metadata value ${i}` }).fill('v'.repeat(250));
  }
  await form.getByRole('button', { name: 'Save metadata' }).click();
  await expect(form.getByRole('alert')).toHaveText('Names and values together exceed 4096 bytes.');

});

test('refuses more than 90 metadata items', async ({ app: page }) => {
  test.slow();
  await openContainer(page, EDITS);
  await row(page, 'limits.txt').click();
  const panel = details(page);
  await panel.getByRole('button', { name: 'Edit metadata' }).click();
  const form = panel.getByRole('form', { name: 'Edit metadata' });
  // A new row takes the focus, so typing its name is quick.
  for (let i = 1; i <= 91; i++) {
    await form.getByRole('button', { name: 'Add metadata' }).click();
    await page.keyboard.type(`k${i}`);
  }
  await expect(form.getByRole('textbox', { name: 'Metadata name 91' })).toHaveValue('k91');
  await form.getByRole('button', { name: 'Save metadata' }).click();
  await expect(form.getByRole('alert')).toHaveText('At most 90 metadata items are allowed.');
});
