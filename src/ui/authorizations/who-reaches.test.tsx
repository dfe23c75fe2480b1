import { QueryClientProvider } from '@tanstack/react-query'
import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Service } from '../../node'
import { renderWithService } from '../../testing/render'
import { WhoReaches } from './who-reaches'
import { remember } from '../shared/page-store'
import { ConfigProvider, type PlaygroundConfig } from '../shared/config'

/** An authorization the page remembers, as its log reader would. */
async function mint(service: Service, config: PlaygroundConfig, abilities: string[], ttl?: number) {
  const token = await service.authorize(abilities, ttl === undefined ? {} : { ttl })
  await remember(config, [token])
  return token
}

describe('Who can reach it?', { timeout: 30_000 }, () => {
  it('lists the tokens that reach a key, through which ability and until when', async () => {
    const view = await renderWithService(<></>)
    const { service, config } = view
    const alice = await mint(service, config, ['keyv.get?bucket=users&prefix=alice/'], 600)
    await mint(service, config, ['keyv.get?bucket=users&prefix=bob/'])
    window.location.hash = '#/authorizations?who=key&whoBucket=users&whoKey=alice%2F1'
    view.rerender(
      <ConfigProvider config={config}>
        <QueryClientProvider client={view.client}>
          <WhoReaches />
        </QueryClientProvider>
      </ConfigProvider>,
    )
    const verdict = await screen.findByTestId('who-verdict', {}, { timeout: 10_000 })
    expect(verdict.textContent).toMatch(/^2 tokens reach bucket users, key alice\/1 at /)
    const rows = screen.getAllByTestId('who-row')
    expect(rows.map((row) => row.querySelector('td')!.textContent)).toEqual([
      expect.stringMatching(/^Secret sec_/),
      'Authorization [keyv.get?bucket=users&prefix=alice/]',
    ])
    expect(rows[1]!.textContent).toMatch(/keyv\.get by keyv\.get\?bucket=users&prefix=alice\//)
    expect(rows[1]!.textContent).toMatch(/\(it expires\)$/)
    expect(screen.getByTestId('who-answer').textContent).toMatch(/1 other token does not reach it/)
    // Each links to what that token can do, the question kept.
    const inspect = within(rows[1]!).getByRole('link').getAttribute('href')!
    expect(new URLSearchParams(inspect.split('?')[1]).get('inspect')).toBe(`authorization:${alice}`)
    expect(new URLSearchParams(inspect.split('?')[1]).get('whoKey')).toBe('alice/1')
    // What the view says names each token by what it holds, never by its text.
    const said = screen.getByTestId('who-reaches').textContent!
    expect(said).not.toContain(alice)
    expect(said).not.toContain(service.secret)

    // A key no call could name is the engine's 400, said where the answer goes.
    window.location.hash = `#/authorizations?who=key&whoBucket=users&whoKey=${'k'.repeat(1025)}`
    window.dispatchEvent(new HashChangeEvent('hashchange'))
    expect((await screen.findByRole('alert', {}, { timeout: 10_000 })).textContent).toMatch(
      /^The engine could not answer: `resource\.key' must be a key \(text, or an integer\) of 1 to 1024 characters/,
    )
  })
})
