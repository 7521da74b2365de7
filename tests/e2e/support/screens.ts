// The window sizes and colour schemes the folder-view specs run at: the narrowest window the app
// supports and a common desktop one, each in one of the two schemes (so both schemes are covered).
import type { ViewportSize } from '@playwright/test';

export interface Screen {
  name: string;
  viewport: ViewportSize;
  colorScheme: 'light' | 'dark';
}

export const NARROW_DARK: Screen = { name: '1024 px, dark', viewport: { width: 1024, height: 768 }, colorScheme: 'dark' };
export const WIDE_LIGHT: Screen = { name: '1400 px, light', viewport: { width: 1400, height: 900 }, colorScheme: 'light' };

export const SCREENS: readonly Screen[] = [NARROW_DARK, WIDE_LIGHT];
