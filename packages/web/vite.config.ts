import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Only React has a chunk of its own (every route needs it, and it changes less often than our
 * code). antd, its icons and the other libraries are not grouped: rolldown splits them along the
 * screens' lazy imports (App.tsx), so the login page loads the few antd components it renders
 * instead of all of antd (docs/decisions/0025-web-delivery.md; sizes in bench/RESULTS.md).
 */
const VENDOR_GROUPS = [
  {
    name: 'vendor-react',
    test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
    priority: 30,
  },
];

export default defineConfig({
  root,
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The import graph per route, read by bench/web-sizes.ts.
    manifest: true,
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      output: { codeSplitting: { groups: VENDOR_GROUPS } },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:8080', ws: true },
    },
  },
});
