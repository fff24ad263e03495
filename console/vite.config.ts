// The console's build (docs/console.md): Preact's JSX through Vite's own transformer (oxc), so no plug-in is needed;
// every file under assets/ named by its content hash, which the service caches for a year (src/http/console.ts).
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/pdfservice/v1/console/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline script or style (the service's Content-Security-Policy refuses them) and no data: URLs.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
});
