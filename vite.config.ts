import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [react()],
  server: { port: 5173, strictPort: false },
  preview: { port: 4173, strictPort: true },
  // The playground ships the whole service (engine, msw, React) in one bundle on purpose.
  build: { chunkSizeWarningLimit: 1024 },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/**/*.test.ts', 'conformance/**/*.test.ts'],
          exclude: ['src/ui/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'fetch',
          environment: 'node',
          include: ['src/engine/**/*.test.ts'],
          exclude: ['src/engine/fence.test.ts'],
          setupFiles: ['src/msw/fetch-transport.setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'idb',
          environment: 'node',
          include: ['src/engine/**/*.test.ts'],
          exclude: ['src/engine/fence.test.ts'],
          setupFiles: ['src/storage/idb-harness.setup.ts'],
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
