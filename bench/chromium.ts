import { chromium } from '@playwright/test'

/** Debian's Chromium, headless, with the flags these machines need. */
export const launchChromium = () =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  })

/**
 * The playground built and served by `vite preview` on 127.0.0.1, with Debian's Chromium and a
 * context whose pages can evaluate functions tsx compiled; `close()` stops both.
 */
export async function builtPlayground() {
  const { build, preview } = await import('vite')
  await build({ logLevel: 'warn' })
  const server = await preview({ preview: { host: '127.0.0.1', port: 0 }, logLevel: 'warn' })
  const origin = server.resolvedUrls!.local[0]!.replace(/\/$/, '')
  const browser = await launchChromium()
  // tsx names functions with a `__name` helper that pages evaluating them do not have.
  const context = await browser.newContext()
  await context.addInitScript('globalThis.__name = (fn) => fn')
  return {
    origin,
    browser,
    context,
    async close() {
      await browser.close()
      await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
    },
  }
}
