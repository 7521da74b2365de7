// Looking before downloading: the details panel previews the selected object (images, an SVG
// whose script never runs, text in its own encoding, JSON pretty-printed, PDFs in Chromium's
// viewer, audio and video streamed in byte ranges), says why when it does not, and Space opens a
// larger preview the arrow keys move through. Through the local store, remote S3 and remote
// Swift, at 1024 px dark and 1400 px light.
import type { Page, Response } from '@playwright/test';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { LocalStoreStatus, LocalUser } from '../../src-shared/contract/local-store.js';
import type { ConnectionInfo } from '../../src-shared/model/connections.js';
import { addS3Connection, uniqueName } from './support/browse-helpers.js';
import { details, expect, grid, openContainer, row, rpc, test, token } from './support/fixtures.js';
import { expectReadable } from './support/looks.js';
import { AUDIO_SECONDS, BIG_TEXT_BYTES, FIXTURES, JSON_TEXT, SVG_SCRIPT_MARK, putFixtures, s3For } from './support/preview-fixtures.js';
import { SCREENS } from './support/screens.js';

const preview = (page: Page) => details(page).getByRole('region', { name: 'Preview' });

/** Every answer to a request for one object's bytes, as the page got them. */
function objectResponses(page: Page, name: string): Response[] {
  const seen: Response[] = [];
  page.on('response', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/_coffer/download' && url.searchParams.get('name') === name) seen.push(r);
  });
  return seen;
}

async function select(page: Page, name: string): Promise<void> {
  await row(page, name).click();
  await expect(details(page).getByText(name, { exact: true }).first()).toBeVisible();
}

/** Seeks the audio or video near its end once it knows its duration. */
async function seekNearEnd(media: ReturnType<Page['locator']>): Promise<void> {
  await expect.poll(() => media.evaluate((m: HTMLMediaElement) => m.readyState)).toBeGreaterThanOrEqual(1);
  await media.evaluate((m: HTMLMediaElement) => {
    m.currentTime = m.duration * 0.9;
  });
}

/** The seek asked for bytes far past the start, answered 206; nothing was answered whole. */
async function expectSeekRange(responses: Response[], size: number): Promise<void> {
  await expect
    .poll(() => responses.some((r) => r.status() === 206 && Number(/^bytes (\d+)-/.exec(r.headers()['content-range'] ?? '')?.[1] ?? 0) > size / 2))
    .toBe(true);
  expect(responses.map((r) => r.status()).filter((s) => s !== 206)).toEqual([]);
}

for (const screen of SCREENS) {
  test.describe(`previews at ${screen.name}`, () => {
    test.use({ viewport: screen.viewport, colorScheme: screen.colorScheme });
    const container = uniqueName('preview');

    test.beforeAll(async ({ browser }) => {
      const page = await browser.newPage();
      await page.goto(`/_coffer/?token=${token()}`);
      await putFixtures(page, container, FIXTURES);
      await page.close();
    });

    test('an image shows in the panel; an SVG shows as an image and its script never runs', async ({ app: page }) => {
      const scriptRequests: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes(SVG_SCRIPT_MARK)) scriptRequests.push(r.url());
      });
      await openContainer(page, container);
      await select(page, 'photo.png');
      const image = preview(page).getByRole('img', { name: 'Image photo.png' });
      await expect.poll(() => image.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(64);
      await select(page, 'evil.svg');
      const svg = preview(page).getByRole('img', { name: 'Image evil.svg' });
      await expect.poll(() => svg.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(80);
      // Opened as a page of its own, its address still runs nothing: a sandbox without scripts.
      const alone = await page.context().newPage();
      alone.on('request', (r) => {
        if (r.url().includes(SVG_SCRIPT_MARK)) scriptRequests.push(r.url());
      });
      await alone.goto((await svg.getAttribute('src'))!);
      await expect(alone.locator('rect')).toHaveCount(1);
      expect(await alone.title()).toBe('evil');
      await alone.close();
      expect(await page.title()).not.toBe(SVG_SCRIPT_MARK);
      expect(scriptRequests).toEqual([]);
    });

    test('text in windows-1252 reads right and names its encoding; JSON is pretty-printed', async ({ app: page }) => {
      await openContainer(page, container);
      await select(page, 'notes-latin1.txt');
      const text = preview(page).getByLabel('Text of notes-latin1.txt');
      await expect(text).toContainText('Crème brûlée, façade, naïve – l’œuvre coûte 25 € à Québec.');
      await expect(text).toContainText('Déjà vu: “élève” — garçon, Noël, sœur.');
      await expect(preview(page).getByText('Encoding: windows-1252')).toBeVisible();
      await expectReadable(preview(page).getByText('Encoding: windows-1252'));
      await select(page, 'data.json');
      await expect(preview(page).getByLabel('Text of data.json')).toHaveText(JSON.stringify(JSON.parse(JSON_TEXT), null, 2));
    });

    test('a long text shows its first 256 KiB, asked for as one range', async ({ app: page }) => {
      const responses = objectResponses(page, 'server.log');
      await openContainer(page, container);
      await select(page, 'server.log');
      await expect(preview(page).getByLabel('Text of server.log')).toContainText('line 00000000000000');
      await expect(preview(page).getByText(/The first 262\.1 KB of 600 KB/)).toBeVisible();
      expect(responses.map((r) => [r.status(), r.headers()['content-range']])).toEqual([[206, `bytes 0-262143/${BIG_TEXT_BYTES}`]]);
    });

    test('a PDF opens in Chromium’s own viewer', async ({ app: page }) => {
      await openContainer(page, container);
      await select(page, 'report.pdf');
      await expect(preview(page).locator('iframe[title="PDF document report.pdf"]')).toBeVisible();
      await expect.poll(() => page.frames().some((f) => f.url().startsWith('chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/'))).toBe(true);
    });

    test('audio streams: seeking asks for a byte range, nothing is downloaded whole', async ({ app: page }) => {
      const responses = objectResponses(page, 'tone.wav');
      await openContainer(page, container);
      await select(page, 'tone.wav');
      const audio = preview(page).locator('audio');
      await expect(audio).toHaveAccessibleName('Audio tone.wav');
      await seekNearEnd(audio);
      await expectSeekRange(responses, FIXTURES.find((f) => f.name === 'tone.wav')!.body.length);
      expect(await audio.evaluate((a: HTMLAudioElement) => Math.round(a.duration))).toBe(AUDIO_SECONDS);
    });

    test('video plays from byte ranges', async ({ app: page }) => {
      const responses = objectResponses(page, 'clip.webm');
      // A real WebM, recorded by this Chromium from a canvas.
      const webm = await page.evaluate(async () => {
        const canvas = document.createElement('canvas');
        canvas.width = 160;
        canvas.height = 120;
        const g = canvas.getContext('2d')!;
        const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' });
        const chunks: Blob[] = [];
        recorder.ondataavailable = (e) => chunks.push(e.data);
        const stopped = new Promise((resolve) => (recorder.onstop = resolve));
        recorder.start();
        for (let i = 0; i < 30; i++) {
          g.fillStyle = `hsl(${i * 12} 70% 50%)`;
          g.fillRect(0, 0, 160, 120);
          await new Promise((r) => setTimeout(r, 40));
        }
        recorder.stop();
        await stopped;
        return [...new Uint8Array(await new Blob(chunks).arrayBuffer())];
      });
      const s3 = await s3For(page);
      await s3.send(new PutObjectCommand({ Bucket: container, Key: 'clip.webm', Body: Buffer.from(webm), ContentType: 'video/webm' }));
      s3.destroy();
      await openContainer(page, container);
      await select(page, 'clip.webm');
      const video = preview(page).locator('video');
      await expect(video).toHaveAccessibleName('Video clip.webm');
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(160);
      expect(responses.length).toBeGreaterThan(0);
      expect(responses.map((r) => [r.status(), r.headers()['content-range']?.startsWith('bytes 0-')])).toContainEqual([206, true]);
    });

    test('binary and too-large objects say so and load nothing', async ({ app: page }) => {
      const huge = objectResponses(page, 'huge.png');
      await openContainer(page, container);
      await select(page, 'bundle.zip');
      await expect(preview(page).getByText('No preview: application/zip is not a kind of file the app shows.')).toBeVisible();
      await expectReadable(preview(page).getByText(/^No preview/));
      await select(page, 'dump.txt');
      await expect(preview(page).getByText('No preview: this object holds binary data, not text.')).toBeVisible();
      await select(page, 'huge.png');
      await expect(preview(page).getByText('No preview: at 34.6 MB this object is too large to load. Download it to open it.')).toBeVisible();
      await expect(preview(page).getByRole('img')).toHaveCount(0);
      expect(huge).toEqual([]);
    });

    test('Space opens the larger preview, the arrows move through the folder, Space closes it there', async ({ app: page }) => {
      await openContainer(page, container);
      await select(page, 'photo.png');
      await grid(page).press('Space');
      const look = page.getByRole('dialog', { name: 'Preview of photo.png' });
      await expect(look.getByRole('img', { name: 'Image photo.png' })).toBeVisible();
      await expectReadable(look.getByText(/Arrow keys/));
      await page.keyboard.press('ArrowDown');
      await expect(page.getByRole('dialog', { name: 'Preview of report.pdf' }).locator('iframe')).toBeVisible();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowLeft');
      const text = page.getByRole('dialog', { name: 'Preview of notes-latin1.txt' });
      await expect(text.getByLabel('Text of notes-latin1.txt')).toContainText('Crème brûlée');
      await page.keyboard.press('Space');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(row(page, 'notes-latin1.txt')).toHaveAttribute('aria-selected', 'true');
      await expect(grid(page)).toBeFocused();
      // The details panel's button opens it too; Escape closes it.
      await preview(page).getByRole('button', { name: 'Larger preview' }).click();
      await expect(page.getByRole('dialog', { name: 'Preview of notes-latin1.txt' })).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
    });
  });
}

test.describe('previews through remote connections', () => {
  test.use({ viewport: SCREENS[1]!.viewport, colorScheme: SCREENS[1]!.colorScheme });

  test('remote S3 and remote Swift stream audio in ranges and read text in its encoding', async ({ app: page }) => {
    const container = uniqueName('preview-remote');
    await putFixtures(page, container, FIXTURES.filter((f) => f.name === 'tone.wav' || f.name === 'notes-latin1.txt'));
    const s3 = await addS3Connection(page, uniqueName('e2e-preview-s3'));
    const status = await rpc<LocalStoreStatus>(page, 'localStore.status', {});
    const [admin] = await rpc<LocalUser[]>(page, 'localStore.users', {});
    const swift = await rpc<ConnectionInfo>(page, 'accounts.add', {
      name: uniqueName('e2e-preview-swift'),
      config: { kind: 'swift', authUrl: status.nativeAuthUrl, auth: { type: 'v1', user: admin!.swiftKeys[0]!.user, key: admin!.swiftKeys[0]!.secretKey } },
    });
    for (const remote of [s3, swift]) {
      await page.getByRole('navigation', { name: 'Connections' }).getByRole('button', { name: new RegExp(`^${remote.name}`) }).click();
      await openContainer(page, container);
      const responses = objectResponses(page, 'tone.wav');
      await select(page, 'notes-latin1.txt');
      await expect(preview(page).getByLabel('Text of notes-latin1.txt')).toContainText('l’œuvre coûte 25 €');
      await select(page, 'tone.wav');
      await seekNearEnd(preview(page).locator('audio'));
      await expectSeekRange(responses, FIXTURES.find((f) => f.name === 'tone.wav')!.body.length);
      expect(responses.every((r) => new URL(r.url()).searchParams.get('account') === remote.id)).toBe(true);
    }
  });
});
