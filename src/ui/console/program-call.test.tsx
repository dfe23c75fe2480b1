import { QueryClientProvider } from '@tanstack/react-query'
import { configure, fireEvent, screen, waitFor } from '@testing-library/react'
import { decode } from '@msgpack/msgpack'
import { describe, expect, it } from 'vitest'
import type { ExchangeRecord } from '../../engine'
import { ConfigProvider } from '../shared/config'
import { renderWithService } from '../../testing/render'
import ConsoleView from './console-view'

configure({ defaultHidden: true })

async function openConsole() {
  const view = await renderWithService(<></>)
  const [secret] = await view.service.listSecrets()
  window.location.hash = `#/console?${new URLSearchParams({ token: `secret:${secret!.id}` })}`
  view.rerender(
    <ConfigProvider config={view.config}>
      <QueryClientProvider client={view.client}>
        <ConsoleView />
      </QueryClientProvider>
    </ConfigProvider>,
  )
  return view
}

/** The newest request to `core.exec`, if any. */
async function execExchange(baseUrl: string): Promise<ExchangeRecord | undefined> {
  const response = await fetch(`${baseUrl}/_account/exchanges`)
  const { exchanges } = (await response.json()) as { exchanges: ExchangeRecord[] }
  return exchanges.find((exchange) => exchange.request.url.endsWith('/core/exec'))
}

describe('the console runs a program as proc exec does', { timeout: 20_000 }, () => {
  it('compiles it as it is typed, then sends what the tool sends and shows the answer', async () => {
    const { service } = await openConsole()
    const details = (await screen.findByText('Run a program (as proc exec does)')).closest(
      'details',
    )!
    details.open = true
    fireEvent(details, new Event('toggle'))
    const editor = await screen.findByLabelText('Program to run')
    const run = () => screen.getByRole('button', { name: 'Run as core.exec' })

    fireEvent.change(editor, { target: { value: 'exec {\n  core.echo(:word\n}' } })
    expect(
      (await screen.findByText(/^Line 3, column 1:/, { selector: 'strong' })).textContent,
    ).toBe('Line 3, column 1:')
    expect(run()).toHaveProperty('disabled', true)

    const code = 'exec {\n  core.echo(:word) .| type.string.reverse .| type.string.upcase\n}'
    fireEvent.change(editor, { target: { value: code } })
    fireEvent.change(screen.getByLabelText('Its arguments (name=value, one a line, as -arg)'), {
      target: { value: 'word=bar' },
    })
    await waitFor(() => expect(run()).toHaveProperty('disabled', false))
    fireEvent.click(run())

    await waitFor(async () => expect(await execExchange(service.baseUrl)).toBeDefined())
    const exchange = (await execExchange(service.baseUrl))!
    expect(exchange.response.status).toBe(200)
    const headers = Object.fromEntries(exchange.request.headers)
    expect(headers['content-type']).toBe('application/vnd.service+msgpack')
    expect(headers.accept).toBe('text/plain')
    const body = exchange.request.body!
    expect(body.encoding).toBe('base64')
    expect(decode(Uint8Array.from(atob(body.data), (c) => c.charCodeAt(0)))).toEqual([
      [
        '$$',
        'proc',
        [
          '{}',
          ['()', 'core.compile', ['$$', 'code', ['%%', code]], ['$$', 'lang', ['%%', 'rb']]],
          ['()', 'core.exec'],
        ],
      ],
      ['$$', 'word', 'bar'],
    ])
    expect((await screen.findAllByText('RAB')).length).toBeGreaterThan(0)
  })
})
