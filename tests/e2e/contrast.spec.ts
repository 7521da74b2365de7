// Text contrast in both colour schemes (narrow and dark, wide and light), as WCAG AA asks (4.5:1 for normal text): every visible
// text of the main window, the delete dialog (its danger button), and the transfers panel,
// measured from the colours Chromium computed (backgrounds composed up the ancestors).
import type { Page } from '@playwright/test';
import { expect, openContainer, row, test } from './support/fixtures.js';
import { SCREENS } from './support/screens.js';
import { ARCHIVE } from './support/seed-data.js';

interface Finding {
  text: string;
  ratio: number;
  color: string;
  background: string;
}

/** Every element with its own visible text under `root` whose text falls below 4.5:1. */
function lowContrast(page: Page, root: string): Promise<Finding[]> {
  return page.evaluate((rootSelector) => {
    const parse = (c: string): [number, number, number, number] => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return [0, 0, 0, 0];
      const [r = 0, g = 0, b = 0, a = 1] = m[1]!.split(/[ ,/]+/).filter(Boolean).map(Number);
      return [r, g, b, a];
    };
    const over = (top: number[], under: number[]) => [0, 1, 2].map((i) => top[i]! * top[3]! + under[i]! * (1 - top[3]!));
    const background = (el: Element | null): number[] => {
      const layers: number[][] = [];
      for (let e = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c[3] > 0) layers.push(c);
        if (c[3] === 1) break;
      }
      let rgb = [255, 255, 255];
      for (const layer of layers.reverse()) rgb = over(layer, rgb);
      return rgb;
    };
    const luminance = (rgb: number[]) => {
      const [r, g, b] = rgb.map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const out: Finding[] = [];
    const root = document.querySelector(rootSelector);
    for (const el of root ? [root, ...Array.from(root.querySelectorAll('*'))] : []) {
      const own = Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      if (!own || box.width === 0 || style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
      // Disabled controls are exempt in WCAG (1.4.3).
      if ((el as HTMLButtonElement).disabled || el.closest('[disabled],[aria-disabled="true"]')) continue;
      const bg = background(el);
      const fg = over(parse(style.color), bg);
      const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
      const ratio = (hi! + 0.05) / (lo! + 0.05);
      if (ratio < 4.5) out.push({ text: el.textContent!.trim().slice(0, 40), ratio: Math.round(ratio * 100) / 100, color: style.color, background: `rgb(${bg.map(Math.round).join(', ')})` });
    }
    return out;
  }, root);
}

for (const screen of SCREENS) {
  test.describe(screen.name, () => {
    test.use({ viewport: screen.viewport, colorScheme: screen.colorScheme });

    test('the main window, the delete dialog and the transfers panel keep text at 4.5:1 or more', async ({ app: page }) => {
      await openContainer(page, ARCHIVE);
      await expect(row(page, 'readme.txt')).toBeVisible();
      expect(await lowContrast(page, '#root')).toEqual([]);

      await row(page, 'readme.txt').click();
      await page.getByRole('toolbar', { name: 'Folder actions' }).getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete' });
      await expect(dialog.getByRole('button', { name: 'Delete' })).toBeVisible();
      expect(await lowContrast(page, '[role="dialog"]')).toEqual([]);
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('button', { name: /^Transfers/ }).first().click();
      await expect(page.getByRole('region', { name: 'Transfers' })).toBeVisible();
      expect(await lowContrast(page, '#root')).toEqual([]);
    });
  });
}
