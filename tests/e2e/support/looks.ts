// The window sizes and colour schemes the specs of daily use run in: the narrowest window the app
// supports and a wide one, dark and light. `test.use(look)` inside a describe per look.
import { expect, type Locator } from '@playwright/test';

export const LOOKS = [
  { name: '1024 px, dark', use: { viewport: { width: 1024, height: 720 }, colorScheme: 'dark' as const } },
  { name: '1400 px, light', use: { viewport: { width: 1400, height: 860 }, colorScheme: 'light' as const } },
];

/**
 * The text's contrast with what is behind it (the first ancestor with an opaque background), at
 * least `min` (WCAG AA: 4.5:1 for text).
 */
export async function expectReadable(locator: Locator, opts: { min?: number; pseudo?: '::placeholder' } = {}): Promise<void> {
  const ratio = await locator.evaluate((el, pseudo) => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
    };
    let back: number[] | undefined;
    for (let node: Element | null = el; node && !back; node = node.parentElement) {
      const c = rgb(getComputedStyle(node).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] === 1)) back = c.slice(0, 3);
    }
    const [a, b] = [luminance(rgb(getComputedStyle(el, pseudo).color)), luminance(back ?? [255, 255, 255])];
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  }, opts.pseudo ?? null);
  expect(ratio, 'contrast ratio').toBeGreaterThanOrEqual(opts.min ?? 4.5);
}
