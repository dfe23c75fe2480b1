import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The kit as the repository's source; a project of your own imports the installed package.
export default defineConfig({
  resolve: {
    alias: {
      'service-playground/vitest': fileURLToPath(
        new URL('../../src/kit/vitest.ts', import.meta.url),
      ),
    },
  },
  test: {
    include: ['examples/chaos-client/*.test.ts'],
    root: fileURLToPath(new URL('../..', import.meta.url)),
  },
})
