import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import {
  SWAGGER_UI_BUILD_FOLDER,
  SWAGGER_UI_SOURCE_DIR,
  swaggerUiFiles,
} from './src/server/plugins/swagger-ui-files.js';

/**
 * Copies the API docs page's files into the build, where every build path precompresses them with the app's own
 * (scripts/precompress.mjs); the server sends them from there (src/server/plugins/docs.ts).
 */
function swaggerUiCopies(): Plugin {
  return {
    name: 'flujo-swagger-ui-copies',
    apply: 'build',
    generateBundle() {
      for (const name of swaggerUiFiles()) {
        this.emitFile({
          type: 'asset',
          fileName: `${SWAGGER_UI_BUILD_FOLDER}/${name}`,
          source: readFileSync(join(SWAGGER_UI_SOURCE_DIR, name)),
        });
      }
    },
  };
}

export default defineConfig({
  root: 'src/web',
  plugins: [react(), tailwindcss(), swaggerUiCopies()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    // .vite/manifest.json: the server announces a public screen's chunks in its head (src/server/plugins/web-page.ts).
    manifest: true,
    // What the first screen needs is one file (about 140 kB of brotli): sixteen small shared chunks cost more
    // in response headers and in what compressing them apart loses than they saved, and the screens reached
    // later still load their own chunks. Its 520 kB before compression is over Vite's default warning.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/result': 'http://127.0.0.1:3000',
      '/demo-hooks': 'http://127.0.0.1:3000',
    },
  },
});
