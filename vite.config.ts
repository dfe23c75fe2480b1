import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'
import { defineConfig } from 'vitest/config'

const APP_WORKER = 'app-worker.js'
const SHELL_PLACEHOLDER = "const APP_SHELL = { version: '', files: [] }"

/**
 * Writes the built files into the service worker's precache list (`public/app-worker.js`),
 * with a version that changes with them: a new build is then a new worker, which the browser
 * installs, and the old cache goes on activate. The dev server serves the worker unchanged.
 */
function appShell(): Plugin {
  let publicDir = ''
  return {
    name: 'app-shell',
    apply: 'build',
    configResolved(config) {
      publicDir = config.publicDir
    },
    generateBundle(_options, bundle) {
      const built = Object.keys(bundle).filter((name) => !/\.(html|map)$/.test(name))
      const files = ['/', ...built.sort().map((name) => `/${name}`)]
      const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 16)
      const source = readFileSync(join(publicDir, APP_WORKER), 'utf8')
      if (!source.includes(SHELL_PLACEHOLDER)) {
        this.error(`${APP_WORKER} no longer holds the line ${SHELL_PLACEHOLDER}`)
      }
      const shell = `const APP_SHELL = ${JSON.stringify({ version, files })}`
      // Emitted over the copy of the public folder, which Vite writes first.
      this.emitFile({
        type: 'asset',
        fileName: APP_WORKER,
        source: source.replace(SHELL_PLACEHOLDER, shell),
      })
    },
  }
}

export default defineConfig({
  plugins: [react(), appShell()],
  server: { port: 5173, strictPort: false },
  preview: { port: 4173, strictPort: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/**/*.test.ts'],
          exclude: ['src/ui/**', 'src/**/pg-*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          environment: 'node',
          include: [
            'src/**/pg-*.test.ts',
            // Run again with their accounts in PostgreSQL (src/testing/pg-harness.setup.ts).
            'src/engine/operator/*.test.ts',
            'src/engine/rate-window.test.ts',
            'src/engine/account/{account,usage}.test.ts',
          ],
          globalSetup: ['src/testing/postgres-cluster.setup.ts'],
          setupFiles: ['src/testing/pg-harness.setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'fetch',
          environment: 'node',
          include: ['src/engine/**/*.test.ts'],
          // The composer language uses no transport or store, and `*.node.test.ts` make engines of
          // their own in Node: they run once, in `node`.
          exclude: ['src/engine/fence.test.ts', 'src/engine/lang/rb/**', 'src/**/*.node.test.ts'],
          setupFiles: ['src/testing/fetch-transport.setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'idb',
          environment: 'node',
          include: ['src/engine/**/*.test.ts'],
          exclude: ['src/engine/fence.test.ts', 'src/engine/lang/rb/**', 'src/**/*.node.test.ts'],
          setupFiles: ['src/testing/idb-harness.setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/ui/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
})
