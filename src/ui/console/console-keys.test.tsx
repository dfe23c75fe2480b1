import { QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ExchangeRecord } from '../../engine'
import { ConfigProvider } from '../shared/config'
import { codeAddsTo } from '../shared/refusal'
import { renderWithService } from '../../testing/render'
import ConsoleView from './console-view'

/** The console over a fresh service, opened by a link naming `params`. */
async function openConsole(params: Record<string, string> = {}) {
  const view = await renderWithService(<></>)
  const [secret] = await view.service.listSecrets()
  window.location.hash = `#/console?${new URLSearchParams({ token: `secret:${secret!.id}`, ...params })}`
  view.rerender(
    <ConfigProvider config={view.config}>
      <QueryClientProvider client={view.client}>
        <ConsoleView />
      </QueryClientProvider>
    </ConfigProvider>,
  )
  if (params.endpoint) await screen.findByTestId('endpoint-summary', {}, { timeout: 5000 })
  return view
}

async function exchanges(baseUrl: string): Promise<ExchangeRecord[]> {
  const response = await fetch(`${baseUrl}/_account/exchanges`)
  return ((await response.json()) as { exchanges: ExchangeRecord[] }).exchanges
}

const endpointField = () => screen.getByRole('combobox', { name: 'Endpoint' }) as HTMLInputElement
const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send' }))
const plainText = (name: string) =>
  screen.getByRole('checkbox', { name: `${name} as plain text` }) as HTMLInputElement

describe('the console does what the keyboard says', { timeout: 20_000 }, () => {
  it('picks the highlighted endpoint with Enter, and never sends from the endpoint field', async () => {
    const { service } = await openConsole()
    await screen.findByRole('combobox', { name: 'Body format' })
    fireEvent.change(endpointField(), { target: { value: 'rev' } })
    const list = await screen.findByRole('listbox', { name: 'Endpoints' })
    const first = within(list).getAllByRole('option')[0]!
    expect(first.getAttribute('aria-selected')).toBe('true')
    expect(endpointField().getAttribute('aria-activedescendant')).toBe(first.id)
    fireEvent.keyDown(endpointField(), { key: 'Enter' })
    expect(endpointField().value).toBe('type.string.reverse')
    // The whole name typed, then Enter: picked, not sent.
    fireEvent.change(endpointField(), { target: { value: 'core.ping' } })
    fireEvent.keyDown(endpointField(), { key: 'Enter' })
    expect(endpointField().value).toBe('core.ping')
    fireEvent.keyDown(endpointField(), { key: 'Enter' })
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await exchanges(service.baseUrl)).toEqual([])
    expect(screen.queryByTestId('answer-status')).toBeNull()
    // Ctrl+Enter still sends.
    fireEvent.keyDown(endpointField(), { key: 'Enter', ctrlKey: true })
    await waitFor(() => expect(screen.getByTestId('answer-status').textContent).toBe('200 OK'))
  })

  it('keeps "plain text" ticked on an empty field of type any, and makes it the default for text/plain', async () => {
    await openConsole({ endpoint: 'keyv.set' })
    expect(plainText('value').checked).toBe(false)
    fireEvent.click(plainText('value'))
    expect(plainText('value').checked).toBe(true)
    fireEvent.change(screen.getByRole('textbox', { name: 'value' }), { target: { value: 'x' } })
    fireEvent.change(screen.getByRole('textbox', { name: 'value' }), { target: { value: '' } })
    expect(plainText('value').checked).toBe(true)

    fireEvent.change(endpointField(), { target: { value: 'core.echo' } })
    fireEvent.keyDown(endpointField(), { key: 'Enter' })
    expect(plainText('Input').checked).toBe(false)
    fireEvent.change(screen.getByRole('combobox', { name: 'Body format' }), {
      target: { value: 'text' },
    })
    expect(plainText('Input').checked).toBe(true)
  })

  it('sends an argument of type any that is not JSON as the text it is, and says so', async () => {
    const { service } = await openConsole({ endpoint: 'keyv.get', format: 'tuples' })
    const field = (name: string) => screen.getByRole('textbox', { name })
    fireEvent.change(field('bucket'), { target: { value: 'users' } })
    fireEvent.change(field('key'), { target: { value: 'bob/1' } })
    expect(plainText('key').checked).toBe(false)
    expect(screen.queryByText(/not valid JSON/)).toBeNull()
    expect(screen.getByTestId('sent-as-text').textContent).toMatch(
      /^Not JSON: sent as the text it is, "bob\/1"\./,
    )
    send()
    await waitFor(() => expect(screen.getByTestId('answer-status').textContent).toBe('200 OK'))
    const [sent] = await exchanges(service.baseUrl)
    expect(JSON.parse(sent!.request.body!.data)).toContainEqual(['$$', 'key', 'bob/1'])
    // JSON stays JSON: a number is sent as a number, and nothing is said.
    fireEvent.change(field('key'), { target: { value: '12' } })
    expect(screen.queryByTestId('sent-as-text')).toBeNull()
  })

  it('sends plain text to a stored procedure as text/plain', async () => {
    const view = await openConsole()
    await fetch(`${view.service.baseUrl}/service/create`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${view.service.secret}`,
        'content-type': 'application/vnd.service+json',
      },
      body: JSON.stringify([
        ['$$', 'name', 'shout'],
        ['$$', 'proc', ['{}', ['()', 'type.string.upcase']]],
      ]),
    })
    await view.client.invalidateQueries()
    fireEvent.change(endpointField(), { target: { value: 'lib.shout' } })
    fireEvent.change(screen.getByRole('combobox', { name: 'Body format' }), {
      target: { value: 'text' },
    })
    fireEvent.change(screen.getByRole('textbox', { name: 'Input' }), { target: { value: 'hello' } })
    expect(screen.queryByText(/not valid JSON/)).toBeNull()
    send()
    await waitFor(() => expect(screen.getByTestId('answer-value').textContent).toBe('HELLO'))
  })

  it('marks an answer as the earlier request’s once the form changes', async () => {
    await openConsole({ endpoint: 'type.string.upcase', 'input.text': 'hi' })
    send()
    await waitFor(() => expect(screen.getByTestId('answer-value').textContent).toBe('HI'))
    expect(screen.queryByTestId('stale-note')).toBeNull()
    fireEvent.change(screen.getByRole('textbox', { name: 'Input' }), { target: { value: 'ho' } })
    expect(screen.getByTestId('stale-note').textContent).toMatch(/earlier request/)
    expect(screen.getByRole('heading', { name: 'Answer to the earlier request' })).toBeTruthy()
    send()
    await waitFor(() => expect(screen.getByTestId('answer-value').textContent).toBe('HO'))
    expect(screen.queryByTestId('stale-note')).toBeNull()
  })

  it('says what is wrong with a ttl of 1e300 in the terms of a ttl', async () => {
    await openConsole({
      endpoint: 'auth.create',
      format: 'tuples',
      'arg.abilities': '["core"]',
      'arg.ttl': '1e300',
    })
    const note = await screen.findByTestId('number-note')
    expect(note.textContent).toContain('ttl 1e+300 seconds would end after 8640000000000')
    expect(note.textContent).toContain('a ttl from now is at most')
    expect(note.textContent).not.toContain('as a string')
  })

  it('keeps a pasted megabyte whole, shows a prefix, and leaves it out of the link', async () => {
    const { service } = await openConsole({ endpoint: 'type.string.length', format: 'text' })
    const input = () => screen.getByRole('textbox', { name: 'Input' })
    const big = 'x'.repeat(1024 * 1024)
    fireEvent.change(input(), { target: { value: big } })
    expect(screen.getByTestId('long-value').textContent).toContain('1,048,576 characters')
    expect(screen.getByTestId('plan-body').textContent).toHaveLength(4096)
    expect(screen.getAllByTestId('preview-more')[0]!.textContent).toBe(
      '… and 1,044,480 more characters (kept whole, and sent)',
    )
    expect(window.location.hash.length).toBeLessThan(1000)
    expect(screen.getByTestId('left-out-of-link').textContent).toMatch(
      /^Too long for a link: Input/,
    )
    // Past the engine's body limit: its 413, for the whole megabyte.
    send()
    await waitFor(() =>
      expect(screen.getByTestId('answer-status').textContent).toBe('413 Content Too Large'),
    )
    // Under it, the whole value is what is sent.
    fireEvent.click(screen.getByRole('button', { name: 'Clear Input' }))
    fireEvent.change(input(), { target: { value: 'y'.repeat(120_000) } })
    expect(screen.getByTestId('long-value').textContent).toContain('120,000 characters')
    send()
    await waitFor(() => expect(screen.getByTestId('answer-value').textContent).toBe('120000'))
    const [sent] = await exchanges(service.baseUrl)
    expect(sent!.request.body?.bytes).toBe(120_000)
  })

  it('never says an error code twice', () => {
    expect(codeAddsTo('Invalid request', 'invalid')).toBe(false)
    expect(codeAddsTo('Credential refused: expired', 'expired')).toBe(false)
    expect(codeAddsTo('Outside the key-value limit', 'outside_limit')).toBe(true)
    expect(codeAddsTo(undefined, 'store_conflict')).toBe(true)
  })
})
