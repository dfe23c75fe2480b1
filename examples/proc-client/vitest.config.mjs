import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.js'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'in-process',
          env: { SECRET: 'suite-secret-0123456789' },
          setupFiles: ['setup/in-process.js'],
        },
      },
      {
        extends: true,
        test: {
          name: 'serve',
          globalSetup: ['setup/serve-global.js'],
          setupFiles: ['setup/serve-account.js'],
        },
      },
    ],
  },
})
