import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Vendor chunks (rolldown's `output.codeSplitting` groups): libraries change less often than our
 * code, so they stay cached across releases. Screens are split by React.lazy in App.tsx.
 */
const VENDOR_GROUPS = [
  {
    name: 'vendor-react',
    test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
    priority: 30,
  },
  { name: 'vendor-antd-icons', test: /node_modules[\\/]@ant-design[\\/]icons/, priority: 25 },
  {
    name: 'vendor-antd',
    test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[^\\/]+|@emotion|dayjs|stylis)[\\/]/,
    priority: 20,
  },
  { name: 'vendor', test: /node_modules[\\/]/, priority: 10 },
  // The shared contract (enums, validators, zod schemas) every screen uses.
  { name: 'protocol', test: /packages[\\/]protocol[\\/]/, priority: 5 },
];

export default defineConfig({
  root,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // antd is one large vendor chunk (~900 kB before gzip); anything past this is worth a look.
    chunkSizeWarningLimit: 1000,
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
