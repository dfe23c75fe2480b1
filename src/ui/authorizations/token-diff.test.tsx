import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithService } from '../../testing/render'
import { parseRoute } from '../shared/router'
import { stateFromParams } from '../console/state'
import { TokenDiff, verdictOf } from './token-diff'

const items = (list: string) => within(screen.getByTestId(list)).queryAllByTestId('diff-item')

describe('Compare two tokens', { timeout: 30_000 }, () => {
  it('lists what each reaches that the other cannot, each with its proof and its call in the console', async () => {
    const rendered = await renderWithService(<TokenDiff />)
    const { service } = rendered
    const narrow = await service.authorize(['type.string', 'keyv.get?bucket=users&prefix=alice/'])
    const wide = await service.authorize(['type', 'keyv.get?bucket=users'])
    // The tokens arrive with a link, as a shared link carries authorizations.
    window.location.hash = `#/authorizations?a=authorization:${narrow}&b=authorization:${wide}`
    await waitFor(() => expect(screen.getByTestId('diff-result')).toBeTruthy(), { timeout: 10_000 })
    // The verdict first; each side under its own picker, by what it holds.
    const verdict = screen.getByTestId('diff-verdict')
    expect(verdict.dataset.verdict).toBe('a-narrower')
    expect(verdict.textContent).toMatch(
      /^A is narrower than B: B reaches everything A reaches, and \d+ things more\.$/,
    )
    const held = screen.getAllByTestId('diff-side').map((side) =>
      within(side)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    )
    expect(held).toEqual([
      ['type.string', 'keyv.get?bucket=users&prefix=alice/'],
      ['type', 'keyv.get?bucket=users'],
    ])
    expect(screen.getByTestId('diff-result').textContent).toMatch(
      /A is an authorization; B is an authorization\. Both hang from secret/,
    )
    const gained = items('diff-gained')
    expect(items('diff-lost')).toHaveLength(0)
    const add = gained.find((item) => item.getAttribute('data-endpoint') === 'type.number.add')!
    expect(add.getAttribute('data-kind')).toBe('endpoint')
    expect(within(add).getByTestId('diff-proof').textContent).toBe(
      'B: 200 allowed · A: 401 refused (missing_ability)',
    )
    const limit = gained.find((item) => item.getAttribute('data-endpoint') === 'keyv.get')!
    expect(limit.getAttribute('data-kind')).toBe('limit')
    expect(within(limit).getByTestId('diff-call').textContent).toMatch(
      /^keyv\.get\(.*bucket: "users", key: "[^a]/,
    )
    // Its call, in the console, as the tuples simulate read: with each token.
    const withB = within(limit).getByRole('link', { name: 'Open with B in the console' })
    const route = parseRoute(withB.getAttribute('href')!)
    expect(route.view).toBe('console')
    const form = stateFromParams(route.params)
    expect(form).toMatchObject({
      endpoint: 'keyv.get',
      token: `authorization:${wide}`,
      format: 'tuples',
    })
    expect(JSON.parse(form.raw!)).toContainEqual(['$$', 'bucket', 'users'])
    const withA = within(limit).getByRole('link', { name: 'Open with A in the console' })
    expect(stateFromParams(parseRoute(withA.getAttribute('href')!).params).token).toBe(
      `authorization:${narrow}`,
    )
  })

  it('shows a child minted by a delegating parent reaching beyond it, marked delegated', async () => {
    const rendered = await renderWithService(<TokenDiff />)
    const { service } = rendered
    const parent = await service.authorize(['auth.create', 'core.ping'], { insecure: true })
    const child = await service.authorize(['type.string.reverse'], { token: parent })
    window.location.hash = `#/authorizations?a=authorization:${parent}&b=authorization:${child}`
    await waitFor(() => expect(items('diff-gained').length).toBeGreaterThan(0), { timeout: 10_000 })
    const reverse = items('diff-gained').find(
      (item) => item.getAttribute('data-endpoint') === 'type.string.reverse',
    )!
    // Said once for the list when it holds for every item, else on the item.
    const said = screen.queryByTestId('diff-delegated')?.textContent ?? reverse.textContent
    expect(said).toMatch(/A could mint a token that reaches (it|each of these)/)
  })

  it('says which is narrower, or neither, or that they reach the same', () => {
    const item = { kind: 'endpoint' } as never
    expect(verdictOf({ gained: [], lost: [] }).kind).toBe('same')
    expect(verdictOf({ gained: [], lost: [item] }).text).toBe(
      'B is narrower than A: A reaches everything B reaches, and 1 thing more.',
    )
    expect(verdictOf({ gained: [item, item], lost: [item] }).text).toBe(
      'Neither is narrower: A reaches 1 thing B cannot, and B reaches 2 things A cannot.',
    )
  })

  it('asks for two tokens before comparing', async () => {
    await renderWithService(<TokenDiff />)
    expect(screen.getByText(/Choose two tokens/)).toBeTruthy()
  })
})
