import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { FileChooser, Page } from '@playwright/test'
import { expect } from './fixtures'

/** The notes example's contract, as the kit recorded it (under the service name `service`). */
export const notesFile = fileURLToPath(
  new URL('../examples/notes/contracts/notes.json', import.meta.url),
)

/** The notes contract with one expectation wrong: step 5 of its first case reads "Oat milk". */
export function wrongNotes(): { name: string; mimeType: string; buffer: Buffer } {
  const wrong = JSON.parse(readFileSync(notesFile, 'utf8')) as {
    cases: Array<{ steps: Array<{ expect?: { result?: { title?: string } } }> }>
  }
  wrong.cases[0]!.steps[4]!.expect!.result!.title = 'Oat milk'
  return {
    name: 'wrong.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(wrong, null, 2)),
  }
}

/** Opens `files` with the log's "Open contract…" button and the browser's file chooser. */
export async function openContract(page: Page, files: Parameters<FileChooser['setFiles']>[0]) {
  const chooser = page.waitForEvent('filechooser')
  await page.getByRole('button', { name: 'Open contract…' }).click()
  await (await chooser).setFiles(files)
  const panel = page.getByTestId('contract')
  await expect(panel).toHaveAttribute('aria-busy', 'false')
  return panel
}

/** Replays the open contract (on a throwaway account: nothing is asked); answers the summary. */
export async function replay(page: Page) {
  const panel = page.getByTestId('contract')
  await expect(panel.getByTestId('replay-where')).toContainText('throwaway account')
  await panel.getByRole('button', { name: /^Replay/ }).click()
  return panel.getByTestId('contract-summary')
}
