import { defineConfig } from '@playwright/test'

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
// E2E_PORT lets several checkouts run their browser tests side by side.
const port = Number(process.env.E2E_PORT ?? 4173)

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  // A browser test mostly waits (on the page, the worker, IndexedDB): three at a time keep two
  // cores busy.
  workers: 3,
  retries: 0,
  forbidOnly: true,
  reporter: process.env.CI ? [['list']] : [['list']],
  // The longest journeys take a minute with three browsers on two cores: three times that.
  timeout: 180_000,
  // What a view draws after a call (a token's reach, a compared pair) can take several seconds
  // with three browsers on two cores: an assertion waits three times Playwright's 5 s default.
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-quic',
        '--no-first-run',
        '--disable-sync',
      ],
    },
    // A failed test keeps its trace, with a DOM snapshot at every step, and a screenshot of its
    // end; the trace's screencast (a frame every few milliseconds, in every test, kept only on
    // failure) cost about a fifth of a browser test's CPU on two cores.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `npx vite build --logLevel warn && npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
  },
})
