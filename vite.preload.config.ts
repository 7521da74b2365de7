// Builds the Electron preload on its own: sandboxed preloads must be a single CommonJS file, while
// the rest of src-main is emitted by tsc as ESM. Output: dist/preload/preload.cjs.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const fromRoot = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // No index.html and no public/ for this build.
  publicDir: false,
  build: {
    outDir: fromRoot('./dist/preload'),
    emptyOutDir: true,
    target: 'es2023',
    minify: false,
    sourcemap: true,
    lib: {
      entry: fromRoot('./src-main/preload/preload.ts'),
      formats: ['cjs'],
      fileName: () => 'preload.cjs',
    },
    rollupOptions: {
      external: ['electron'],
    },
  },
});
