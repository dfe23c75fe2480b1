import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { readCaseFile } from '../../conformance/cases'
import { makeStepLink } from '../../conformance/link/step-link'
import { startService } from '../../node'
import { LinkPage } from './link-page'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

/** The last step of the notes example's longest case, as a link: what the benchmark opens. */
async function notesLink() {
  const here = dirname(fileURLToPath(import.meta.url))
  const text = readFileSync(join(here, '../../../examples/notes/contracts/notes.json'), 'utf8')
  const file = readCaseFile('notes.json', text)
  const longest = file.cases.reduce(
    (best, one, index) => (one.steps.length > file.cases[best]!.steps.length ? index : best),
    0,
  )
  const made = await makeStepLink(file, { caseIndex: longest })
  return { value: made.value, steps: made.payload.case.steps.length }
}

/** The replay runs the whole case in the page: room for a loaded machine. */
const REPLAYED = { timeout: 15_000 }

describe('the page a step link opens', { timeout: 30_000 }, () => {
  it('replays the link in the page and shows the step before the page service has started, calling nothing', async () => {
    const sent = vi.spyOn(globalThis, 'fetch')
    const { value, steps } = await notesLink()
    const config = { serviceName: 'service', baseUrl: 'https://nowhere.example.test' }
    // The page's own service never starts here: the link must not need it.
    render(<LinkPage config={config} value={value} started={new Promise(() => {})} />)
    const shared = await screen.findByTestId('exchange-detail', {}, REPLAYED)
    expect(
      screen.getByRole('heading', { name: new RegExp(`A shared step: step ${steps} of`) }),
    ).toBeTruthy()
    expect(screen.getByTestId('link-same').textContent).toContain('Every step answered')
    expect(within(shared).getByRole('heading', { name: /Exchange #\d+/ })).toBeTruthy()
    // Not offered to a console whose account is not there yet.
    expect(within(shared).queryByRole('link', { name: 'Open in the console' })).toBeNull()
    expect(sent).not.toHaveBeenCalled()
    expect(screen.getByRole('navigation', { name: 'Views' })).toBeTruthy()
  })

  it('offers the step to the console once the service runs, and the account it came to is untouched', async () => {
    const service = await startService({ baseUrl: 'https://link-page.example.test', journal: 50 })
    try {
      const { value } = await notesLink()
      const config = { serviceName: service.serviceName, baseUrl: service.baseUrl }
      render(<LinkPage config={config} value={value} started={Promise.resolve()} />)
      const shared = await screen.findByTestId('exchange-detail', {}, REPLAYED)
      expect(
        await within(shared).findByRole('link', { name: 'Open in the console' }, REPLAYED),
      ).toBeTruthy()
      // The replay's calls went to its throwaway account, none to the person's.
      expect(await service.engine.operator.journal.list()).toEqual([])
      expect((await service.listSecrets()).map((s) => s.key)).toEqual(service.secrets)
    } finally {
      service.stop()
    }
  })
})
