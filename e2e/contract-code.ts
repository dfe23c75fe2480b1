import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { Page } from '@playwright/test'
import type * as ContractCode from '../src/conformance/browser'
import { expect, playgroundUrl } from './fixtures'

/** The contract code as the page holds it once `loadContractCode` has run: `window.contracts`. */
export type ContractApi = typeof ContractCode

let bundle: Promise<string> | undefined

/** src/conformance/browser.ts bundled for the browser, once per worker. */
function contractBundle(): Promise<string> {
  bundle ??= build({
    entryPoints: [fileURLToPath(new URL('../src/conformance/browser.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'contracts',
    write: false,
    logLevel: 'silent',
  }).then((built) => built.outputFiles[0]!.text)
  return bundle
}

/**
 * Opens the playground for `baseUrl` and `serviceName`, waits for its engine, and loads the
 * contract code into the page as `window.contracts`: cases and contracts then run in the page,
 * through its service worker, with no round trip to the test for each request.
 */
export async function loadContractCode(
  page: Page,
  { baseUrl, serviceName }: { baseUrl: string; serviceName: string },
): Promise<void> {
  const code = contractBundle()
  await page.goto(playgroundUrl({ baseUrl, serviceName }))
  await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
  await page.addScriptTag({ content: await code })
}
