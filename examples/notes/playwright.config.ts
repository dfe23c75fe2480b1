import { defineConfig } from '@playwright/test'

// The notes app's browser tests: the page at https://notes.example.test is served from this
// folder by the `app` fixture (e2e/fixtures.ts), and the service it calls is the kit's.
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    },
  },
})
