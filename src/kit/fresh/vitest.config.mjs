// The kit's own promises, checked in a client's project: each file in process, and over one
// `serve` with an account per file, but for the ones about a service or an engine in this
// process.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['*.test.js'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'in-process' } },
      {
        extends: true,
        test: {
          name: 'serve',
          exclude: ['in-flight.test.js', 'engine.test.js'],
          globalSetup: ['setup/vitest-serve-global.js'],
          setupFiles: ['setup/vitest-serve.js'],
        },
      },
    ],
  },
})
