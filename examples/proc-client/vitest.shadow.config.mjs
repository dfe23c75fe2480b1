import { defineConfig } from 'vitest/config'

// The same suite through `serve --upstream` (shadow mode): SECRET and PROC_BASE_URL name the
// upstream's secret and the shadow's URL, so every call goes to the upstream and the engine
// answers it beside. One account for the run: the files take turns, each test reset after.
export default defineConfig({
  test: {
    include: ['test/**/*.test.js'],
    fileParallelism: false,
    setupFiles: ['setup/shadow.js'],
  },
})
