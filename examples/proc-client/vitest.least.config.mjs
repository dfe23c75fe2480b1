import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The suite, and the real JS client's acceptance suite restated in `acceptance/`, each test run
// twice by setup/least.js: with a wide token, then with the narrowest one the service suggests.
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
    include: ['test/**/*.test.js', 'acceptance/**/*.test.js'],
    env: { SECRET: 'the-suite-token-stands-here' },
    setupFiles: ['setup/least.js'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
