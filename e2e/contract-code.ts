import type { Page } from '@playwright/test'
import type * as ContractCode from '../src/conformance/browser'
import { contractBundle } from '../src/testing/contract-bundle'
import { expect, playgroundUrl } from './fixtures'

/** The contract code as the page holds it once `loadContractCode` has run: `window.contracts`. */
export type ContractApi = typeof ContractCode

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
