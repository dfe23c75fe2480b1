import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Service } from '../../node'
import { renderWithService } from '../../testing/render'
import { BranchBar } from '../branches/branch-bar'
import { listBranches } from '../shared/api'
import { ExchangeLogFollower } from '../shared/exchange-log'
import LogView from './log-view'

/** The view and the header's branch bar, with the app's reader of the exchange log beside. */
const Page = () => (
  <>
    <ExchangeLogFollower />
    <BranchBar />
    <LogView />
  </>
)

const keyv = (service: Service, name: 'set' | 'get', query: string) =>
  fetch(`${service.baseUrl}/keyv/${name}?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.secret}`, 'content-type': 'text/plain' },
  })

const read = async (service: Service) => (await keyv(service, 'get', 'key=note')).text()
const rows = () => screen.queryAllByTestId('exchange-row')
const backOf = (row: HTMLElement) =>
  within(row).getByRole('button', { name: /^Go back to before exchange/ })

describe('Go back to before this', () => {
  it('takes the account and the log back to before a row, on a branch the header can leave', async () => {
    const { service } = await renderWithService(<Page />)
    for (const value of ['one', 'two', 'three']) {
      expect((await keyv(service, 'set', `key=note&value=${value}`)).status).toBe(200)
    }
    await waitFor(() => expect(rows()).toHaveLength(3), { timeout: 3000 })
    expect(screen.queryByTestId('branch-bar')).toBeNull()

    fireEvent.click(backOf(rows()[1]!))
    expect((await screen.findByTestId('went-back')).textContent).toContain('branch “before #2”')
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(await read(service)).toBe('one')
    const bar = await screen.findByTestId('branch-bar')
    expect(within(bar).getByTestId('branch-current').textContent).toBe('before #2')
    const branches = await listBranches(service.baseUrl)
    expect(branches.branches.map((branch) => [branch.name, branch.current])).toEqual([
      ['main', false],
      ['before #2', true],
    ])

    fireEvent.click(within(bar).getByRole('button', { name: 'Return to main' }))
    await waitFor(() => expect(screen.getByTestId('branch-current').textContent).toBe('main'))
    // The old timeline as it was left: its three exchanges, and the read made on the branch not
    // among them.
    await waitFor(() => expect(rows()).toHaveLength(3))
    expect(await read(service)).toBe('three')
  })
})
