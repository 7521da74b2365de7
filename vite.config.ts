// Builds the renderer (src-renderer) into dist/renderer. `base: './'` keeps asset URLs relative so
// the built index.html works both from file:// in Electron and from `vite preview` in the e2e tests.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const fromRoot = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: fromRoot('./src-renderer'),
  base: './',
  plugins: [react()],
  build: {
    outDir: fromRoot('./dist/renderer'),
    emptyOutDir: true,
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
