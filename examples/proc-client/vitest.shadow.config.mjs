import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The same suite through `serve --upstream` (shadow mode): SECRET and PROC_BASE_URL name the
// upstream's secret and the shadow's URL, so every call goes to the upstream and the engine
// answers it beside. One account for the run: the files take turns on it, each in its frames.
// That one account cannot be forked for each concurrent test (the shadow makes no accounts):
// the file whose concurrent tests write one key stays out, its siblings sharing one frame here.
// Run from this repository, the kit is its source (a client's own project installs the package).
export default defineConfig({
  resolve: {
    alias: {
      'service-playground/vitest': fileURLToPath(
        new URL('../../src/kit/vitest.ts', import.meta.url),
      ),
    },
  },
  test: {
    include: ['test/**/*.test.js'],
    exclude: ['test/concurrent-same-key.test.js'],
    fileParallelism: false,
    setupFiles: ['setup/shadow.js'],
  },
})
