import { readFileSync } from 'node:fs'
import { expect, test as base } from 'service-playground/playwright'

const APP = 'https://notes.example.test'
const files: Record<string, [string, string]> = {
  '/': ['text/html', 'index.html'],
  '/notes.js': ['text/javascript', 'notes.js'],
}

export const test = base.extend<{ user: string; app: void }>({
  user: 'alice',
  // The app, served from this folder; its backend's POST /session mints what the page gets: an
  // authorization limited to the user's bucket, for an hour.
  app: [
    async ({ page, service, user }, use) => {
      await page.route(`${APP}/**`, async (route) => {
        const { pathname } = new URL(route.request().url())
        if (pathname === '/session') {
          const bucket = `notes-${user}`
          const token = await service.authorize([`keyv?bucket=${bucket}`], { ttl: 3600 })
          return route.fulfill({ json: { baseUrl: service.baseUrl, bucket, token } })
        }
        const [contentType, file] = files[pathname] ?? []
        if (!file) return route.fulfill({ status: 404 })
        return route.fulfill({
          contentType,
          body: readFileSync(new URL(`../${file}`, import.meta.url)),
        })
      })
      await page.goto(`${APP}/`)
      await expect(page.getByRole('status')).toHaveText(/^\d+ notes?$/)
      await use()
    },
    { auto: true },
  ],
})

export { expect }
