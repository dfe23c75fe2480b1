import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'

// Every passing test here is recorded into contracts/notes.json, one case per test.
test.use({
  serviceOptions: {
    baseUrl: 'https://api.service.test',
    contract: 'contracts/notes.json',
    coverage: 'coverage/service-coverage.json',
  },
})

async function add(page: Page, title: string, text: string, count: number) {
  await page.getByLabel('Title').fill(title)
  await page.getByLabel('Text').fill(text)
  await page.getByRole('button', { name: 'Add' }).click()
  await expect(page.getByRole('status')).toHaveText(`${count} note${count === 1 ? '' : 's'}`)
}

test('adds notes, lists them a page at a time, deletes one', async ({ page }) => {
  await add(page, 'Milk', 'two litres', 1)
  await add(page, 'Eggs', 'a dozen', 2)
  await add(page, 'Bread', 'rye', 3)
  await expect(page.getByRole('listitem')).toHaveText([
    'Bread: rye Delete Bread',
    'Eggs: a dozen Delete Eggs',
    'Milk: two litres Delete Milk',
  ])
  await page.getByRole('button', { name: 'Delete Eggs' }).click()
  await expect(page.getByRole('status')).toHaveText('2 notes')
})

test("reaches no other user's notes", async ({ page }) => {
  await add(page, 'Milk', 'two litres', 1)
  // The page's authorization, pointed at another bucket: the service refuses it.
  const refused = await page.evaluate(async () => {
    const { connect, session } = (window as unknown as { notesApp: NotesApp }).notesApp
    return connect({ ...session, bucket: 'notes-bob' })
      .list()
      .then(
        () => 'listed',
        (error: Error & { status: number }) => `${error.status} ${error.message}`,
      )
  })
  expect(refused).toBe("401 authorization does not have the ability to access service `keyv.scan'")
})

test('says so when the session has expired', async ({ page, service }) => {
  await add(page, 'Milk', 'two litres', 1)
  await service.advanceClock(3601)
  await page.getByRole('button', { name: 'Refresh' }).click()
  await expect(page.getByRole('status')).toHaveText('Your session has expired: sign in again.')
})

interface NotesApp {
  session: { baseUrl: string; bucket: string; token: string }
  connect(session: NotesApp['session']): { list(): Promise<unknown[]> }
}
