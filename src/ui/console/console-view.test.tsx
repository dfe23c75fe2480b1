import { QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import {
  afterEach,
  beforeEach,
  describe,
  expect,
  it,
  onTestFinished,
  vi,
  type MockInstance,
} from 'vitest'
import type { ExchangeRecord } from '../../engine'
import { ConfigProvider } from '../shared/config'
import { remember } from '../shared/page-store'
import { navHref } from '../shared/router'
import { renderWithService } from '../../testing/render'
import { linkInFragment, readStepLink } from '../../conformance/link/step-link'
import ConsoleView from './console-view'

let consoleErrors: MockInstance<typeof console.error>

beforeEach(() => {
  consoleErrors = vi.spyOn(console, 'error')
})

afterEach(() => {
  const calls = consoleErrors.mock.calls
  consoleErrors.mockRestore()
  expect(calls.map((args) => args.map(String).join('|'))).toEqual([])
})

/**
 * The console over a fresh service, opened by a link (its fragment) naming `params` and the
 * service's first secret as the token.
 */
async function openConsole(params: Record<string, string> = {}) {
  const view = await renderWithService(<></>)
  const [secret] = await view.service.listSecrets()
  const query = new URLSearchParams({ token: `secret:${secret!.id}`, ...params })
  window.location.hash = `#/console?${query}`
  view.rerender(
    <ConfigProvider config={view.config}>
      <QueryClientProvider client={view.client}>
        <ConsoleView />
      </QueryClientProvider>
    </ConfigProvider>,
  )
  if (params.endpoint) await screen.findByTestId('endpoint-summary')
  return { ...view, secret: secret! }
}

const field = (name: string) => screen.getByRole('textbox', { name })
const select = (name: string) => screen.getByRole('combobox', { name }) as HTMLSelectElement
const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send' }))
const header = (testId: string, name: string) =>
  screen.getByTestId(testId).querySelector(`[data-header="${name}"]`)?.textContent

async function exchanges(baseUrl: string): Promise<ExchangeRecord[]> {
  const response = await fetch(`${baseUrl}/_account/exchanges`)
  return ((await response.json()) as { exchanges: ExchangeRecord[] }).exchanges
}

async function call(baseUrl: string, token: string, endpoint: string, tuples: unknown[]) {
  const response = await fetch(`${baseUrl}/${endpoint.replaceAll('.', '/')}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/vnd.service+json',
      accept: 'text/plain',
    },
    body: JSON.stringify(tuples),
  })
  return response.text()
}

// Each test renders the console over a fresh service and waits for the engine's answers: under
// load, more than Vitest's 5 s.
describe('ConsoleView', { timeout: 30_000 }, () => {
  it('picks an endpoint from the catalogue with the keyboard and shows its argument fields', async () => {
    await renderWithService(<ConsoleView />)
    const endpoint = screen.getByRole('combobox', { name: 'Endpoint' })
    fireEvent.change(endpoint, { target: { value: 'trunc' } })
    const list = await screen.findByRole('listbox', { name: 'Endpoints' })
    expect(within(list).getAllByRole('option')[0]!.textContent).toContain('type.string.truncate')
    fireEvent.keyDown(endpoint, { key: 'ArrowDown' })
    fireEvent.keyDown(endpoint, { key: 'Enter' })
    expect((endpoint as HTMLInputElement).value).toBe('type.string.truncate')
    expect(screen.getByTestId('endpoint-summary').textContent).toBe(
      'Keeps the first `length` characters.',
    )
    const length = field('length')
    expect(length.getAttribute('aria-required')).toBe('true')
    const described = length
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)!.textContent)
    expect(described).toEqual(['integer · required*', 'how many characters to keep'])
    expect(field('Input')).toBeTruthy()
    // A string input is plain text unless switched to JSON.
    expect(
      (screen.getByRole('checkbox', { name: 'Input as plain text' }) as HTMLInputElement).checked,
    ).toBe(true)

    fireEvent.change(endpoint, { target: { value: 'nothing.here' } })
    expect(screen.getByText(/nothing\.here is not in the engine's catalogue/)).toBeTruthy()
  })

  it.each([
    ['text', 'text/plain'],
    ['json', 'application/json'],
    ['tuples', 'application/vnd.service+json'],
    ['msgpack', 'application/vnd.service+msgpack'],
  ])('reverses hello sent as %s and reads olleh', async (format, type) => {
    await openConsole({ endpoint: 'type.string.reverse' })
    fireEvent.change(select('Body format'), { target: { value: format } })
    fireEvent.change(field('Input'), { target: { value: 'hello' } })
    expect(header('plan-headers', 'content-type')).toBe(type)
    send()
    await waitFor(() => expect(screen.getByTestId('answer-value').textContent).toBe('olleh'))
    expect(screen.getByTestId('answer-status').textContent).toBe('200 OK')
    expect(header('answer-headers', 'content-type')?.split(';')[0]).toBe(type)
    expect(header('answer-headers', 'x-rate-limit')).toMatch(/;window=/)
  })

  it('says the query string carries no input: the engine answers why', async () => {
    await openConsole({ endpoint: 'type.string.reverse', format: 'query', 'input.text': 'hello' })
    expect(screen.getByText(/the input is not sent/)).toBeTruthy()
    expect(header('plan-headers', 'content-type')).toBeUndefined()
    send()
    await waitFor(() =>
      expect(screen.getByTestId('answer-status').textContent).toBe('400 Bad Request'),
    )
    expect(screen.getByTestId('answer-message').textContent).toMatch(/input/)
  })

  it('shows the exact request of each format: content type and body, MessagePack in hex', async () => {
    const { config, secret } = await openConsole({
      endpoint: 'type.string.truncate',
      'input.text': 'hello',
      'arg.length': '2',
    })
    const format = select('Body format')
    const plan = () => ({
      line: screen.getByTestId('plan-line').textContent,
      type: header('plan-headers', 'content-type'),
      body: screen.queryByTestId('plan-body')?.textContent,
    })
    const url = `${config.baseUrl}/type/string/truncate`
    expect(plan()).toEqual({
      line: `POST ${url}?length=2`,
      type: 'application/json',
      body: '"hello"',
    })
    fireEvent.change(format, { target: { value: 'text' } })
    expect(plan()).toEqual({ line: `POST ${url}?length=2`, type: 'text/plain', body: 'hello' })
    fireEvent.change(format, { target: { value: 'tuples' } })
    expect(plan()).toEqual({
      line: `POST ${url}`,
      type: 'application/vnd.service+json',
      body: '[[">>","hello"],["$$","length",2]]',
    })
    fireEvent.change(format, { target: { value: 'msgpack' } })
    expect(plan()).toEqual({
      line: `POST ${url}`,
      type: 'application/vnd.service+msgpack',
      body: '92 92 a2 3e 3e a5 68 65 6c 6c 6f 93 a2 24 24 a6\n6c 65 6e 67 74 68 02',
    })
    fireEvent.change(format, { target: { value: 'query' } })
    expect(plan()).toEqual({ line: `POST ${url}?length=2`, type: undefined, body: undefined })
    // The token is masked until revealed.
    const authorization = screen
      .getByTestId('plan-headers')
      .querySelector('[data-header="authorization"]')!
    expect(authorization.textContent).not.toContain(secret.key)
    fireEvent.click(screen.getByRole('button', { name: 'Reveal the token of the request' }))
    expect(authorization.textContent).toContain(`Bearer ${secret.key}`)
  })

  it('edits the raw tuples, sent as written until reset', async () => {
    await openConsole({
      endpoint: 'type.string.truncate',
      format: 'tuples',
      'input.text': 'hello',
      'arg.length': '2',
    })
    const tuples = screen.getByRole('textbox', { name: 'Tuples' })
    fireEvent.change(tuples, { target: { value: '[[">>", "raw text"], ["$$", "length", 3]]' } })
    expect(screen.getByTestId('plan-body').textContent).toBe(
      '[[">>", "raw text"], ["$$", "length", 3]]',
    )
    expect(field('Input').closest('fieldset')!.disabled).toBe(true)
    send()
    await waitFor(() => expect(screen.getByTestId('answer-value').textContent).toBe('raw'))
    fireEvent.click(screen.getByRole('button', { name: 'Reset to the form' }))
    expect(screen.getByTestId('plan-body').textContent).toBe('[[">>","hello"],["$$","length",2]]')
  })

  it('shows a 401 for a missing ability with the engine message, readably', async () => {
    const { service, config, client } = await openConsole({
      endpoint: 'keyv.get',
      format: 'tuples',
      'text.key': 'alice',
    })
    const token = await call(service.baseUrl, service.secret, 'auth.create', [
      ['$$', 'abilities', ['type']],
    ])
    await remember(config, [token])
    await client.invalidateQueries()
    const menu = select('Token')
    await waitFor(() =>
      expect(within(menu).getByRole('option', { name: 'Authorization [type]' })).toBeTruthy(),
    )
    fireEvent.change(menu, { target: { value: `authorization:${token}` } })
    send()
    await waitFor(() =>
      expect(screen.getByTestId('answer-status').textContent).toBe('401 Unauthorized'),
    )
    expect(screen.getByTestId('answer-message').textContent).toBe(
      "authorization does not have the ability to access service `keyv.get'",
    )
    expect(screen.getByTestId('answer-body').textContent).toContain('"!!"')

    // The refusal shared as a link: the calls before it and itself, tokens as roles.
    fireEvent.click(await screen.findByRole('button', { name: 'Share this step' }))
    // The link code is a chunk of its own, loaded on the first share: give it time.
    const shared = (await screen.findByTestId(
      'shared-link',
      {},
      { timeout: 10_000 },
    )) as HTMLInputElement
    const value = linkInFragment(new URL(shared.value).hash)!
    const link = await readStepLink(value)
    expect(link.case.steps.at(-1)).toMatchObject({ call: 'keyv.get', token: '$auth1' })
    for (const text of [token, service.secret]) expect(shared.value.includes(text)).toBe(false)
  })

  it('keeps a rolled secret chosen: the menu says expired and Send sends exactly that key', async () => {
    const { service, secret, client } = await openConsole({ endpoint: 'core.ping' })
    const menu = select('Token')
    await waitFor(() =>
      expect(menu.selectedOptions[0]!.textContent).toBe(`Secret ${secret.id} (active)`),
    )
    await service.rollSecret(secret.id)
    await client.invalidateQueries()
    await waitFor(() =>
      expect(menu.selectedOptions[0]!.textContent).toBe(`Secret ${secret.id} (expired)`),
    )
    expect(menu.value).toBe(`secret:${secret.id}`)
    expect(screen.getByText(/This secret is expired/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Reveal the token of the request' }))
    expect(header('plan-headers', 'authorization')).toContain(`Bearer ${secret.key}`)
    send()
    await waitFor(() =>
      expect(screen.getByTestId('answer-status').textContent).toBe('401 Unauthorized'),
    )
    const [sent] = await exchanges(service.baseUrl)
    expect(sent!.request.headers).toContainEqual(['authorization', `Bearer ${secret.key}`])
  })

  it('pages through keyv.scan with the x-cursor', async () => {
    const { service } = await openConsole({ endpoint: 'keyv.scan', 'arg.count': '2' })
    for (const key of ['a', 'b', 'c', 'd', 'e']) {
      await call(service.baseUrl, service.secret, 'keyv.set', [
        ['>>', key],
        ['$$', 'value', 1],
      ])
    }
    send()
    await waitFor(() =>
      expect(screen.getByTestId('answer-value').textContent).toBe('[\n  "a",\n  "b"\n]'),
    )
    expect(header('answer-headers', 'x-cursor')).toMatch(/\S{20,}/)
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    await waitFor(() =>
      expect(screen.getByTestId('answer-value').textContent).toBe('[\n  "c",\n  "d"\n]'),
    )
    expect((field('cursor') as HTMLInputElement).value).toBe(
      (await exchanges(service.baseUrl))[1]!.response.headers.find(([n]) => n === 'x-cursor')![1],
    )
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(screen.getByTestId('answer-value').textContent).toBe('[\n  "e"\n]'))
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull()
    const link = await screen.findByRole('link', { name: 'See in the exchange log' })
    const [newest] = await exchanges(service.baseUrl)
    expect(link.getAttribute('href')).toBe(`#/log?id=${newest!.id}`)
  })

  it('restores the form from a link and keeps it there as it changes', async () => {
    const { secret } = await openConsole({
      endpoint: 'type.string.truncate',
      format: 'msgpack',
      accept: 'json',
      'input.text': 'hello',
      'arg.length': '2',
      junk: 'x',
    })
    expect((screen.getByRole('combobox', { name: 'Endpoint' }) as HTMLInputElement).value).toBe(
      'type.string.truncate',
    )
    await waitFor(() => expect(select('Token').value).toBe(`secret:${secret.id}`))
    expect(select('Body format').value).toBe('msgpack')
    expect(select('Accept').value).toBe('json')
    expect((field('Input') as HTMLTextAreaElement).value).toBe('hello')
    expect((field('length') as HTMLInputElement).value).toBe('2')
    send()
    await waitFor(() => expect(screen.getByTestId('answer-value').textContent).toBe('he'))
    expect(header('answer-headers', 'content-type')).toBe('application/json')
    fireEvent.change(field('length'), { target: { value: '3' } })
    const params = new URLSearchParams(window.location.hash.split('?')[1])
    expect(window.location.hash.startsWith('#/console?')).toBe(true)
    expect(Object.fromEntries(params)).toEqual({
      endpoint: 'type.string.truncate',
      token: `secret:${secret.id}`,
      format: 'msgpack',
      accept: 'json',
      'input.text': 'hello',
      'arg.length': '3',
    })
  })

  it('keeps the form on a bare #/console, and the nav link brings it back', async () => {
    const view = await openConsole({ endpoint: 'type.string.upcase', 'input.text': 'hi' })
    // Still mounted (a view hidden while the next one loads): the form stays.
    window.location.hash = '#/console'
    await waitFor(() => expect(window.location.hash).toContain('endpoint=type.string.upcase'))
    expect((field('Input') as HTMLTextAreaElement).value).toBe('hi')
    // Mounted again, through the nav's link.
    view.rerender(<></>)
    window.location.hash = '#/log?id=1'
    window.location.hash = navHref('console')
    view.rerender(
      <ConfigProvider config={view.config}>
        <QueryClientProvider client={view.client}>
          <ConsoleView />
        </QueryClientProvider>
      </ConfigProvider>,
    )
    expect((field('Input') as HTMLTextAreaElement).value).toBe('hi')
    await waitFor(() => expect(window.location.hash).toContain('endpoint=type.string.upcase'))
  })

  it('ignores what does not parse in a link', async () => {
    window.location.hash =
      '#/console?endpoint=a%20b&token=sk_raw_secret&format=xml&accept=yaml&text.=1'
    await renderWithService(<ConsoleView />)
    expect((screen.getByRole('combobox', { name: 'Endpoint' }) as HTMLInputElement).value).toBe('')
    // A token typed into a link is never sent: the view acts with its own secret.
    await waitFor(() => expect(select('Token').value).toMatch(/^secret:sec_/))
    expect(select('Body format').value).toBe('json')
    expect(window.location.hash).toBe('#/console')
  })

  it('sends with Ctrl+Enter and Cmd+Enter from anywhere in the form', async () => {
    const { service } = await openConsole({ endpoint: 'type.string.upcase', 'input.text': 'hi' })
    fireEvent.keyDown(field('Input'), { key: 'Enter', ctrlKey: true })
    await waitFor(() => expect(screen.getByTestId('answer-value').textContent).toBe('HI'))
    fireEvent.keyDown(select('Body format'), { key: 'Enter', metaKey: true })
    await waitFor(async () => expect(await exchanges(service.baseUrl)).toHaveLength(2))
  })

  it('says where an argument is not JSON, and does not send', async () => {
    const { service } = await openConsole({
      endpoint: 'type.string.truncate',
      'input.text': 'hello',
    })
    fireEvent.change(field('length'), { target: { value: 'two' } })
    expect(field('length').getAttribute('aria-invalid')).toBe('true')
    expect(
      screen.getByText(
        'length is not valid JSON (line 1, column 1: expected a value (an object, array, "string", number, true, false or null), found "t")',
      ),
    ).toBeTruthy()
    send()
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Not sent: length is not valid JSON (line 1, column 1: expected a value (an object, array, "string", number, true, false or null), found "t").',
    )
    expect(await exchanges(service.baseUrl)).toEqual([])
  })

  it('remembers an authorization it creates and offers it as the token', async () => {
    await openConsole({ endpoint: 'auth.create', 'arg.abilities': '["type.string"]' })
    send()
    const use = await screen.findByRole(
      'button',
      { name: 'Use this authorization as the token' },
      { timeout: 10_000 },
    )
    fireEvent.click(use)
    // Remembered, then the token list read again: under load, seconds.
    await waitFor(
      () =>
        expect(select('Token').selectedOptions[0]!.textContent).toBe('Authorization [type.string]'),
      { timeout: 10_000 },
    )
    // The link now holds the token itself: said, with a way to copy it without.
    expect(screen.getByTestId('link-token-note').textContent).toMatch(
      /hold the authorization itself: whoever has them can use it/,
    )
    expect(screen.getByRole('button', { name: 'Copy link without the token' })).toBeTruthy()
  })

  it('names a missing token once: "token missing", not "no token missing"', async () => {
    await openConsole({ endpoint: 'core.ping', token: 'none' })
    expect(screen.queryByTestId('link-token-note')).toBeNull()
    send()
    const reason = await screen.findByTestId('refusal-reason', {}, { timeout: 10_000 })
    expect(reason.querySelector('.refusal-code')!.textContent).toBe(
      "The engine's reason: Credential refused: token missing",
    )
  })
})

describe('ConsoleView: what a newcomer meets', { timeout: 30_000 }, () => {
  it('starts with the active secret as the token, like every other view', async () => {
    window.location.hash = '#/console'
    const { service } = await renderWithService(<ConsoleView />)
    const [secret] = await service.listSecrets()
    await waitFor(() => expect(select('Token').value).toBe(`secret:${secret!.id}`))
    fireEvent.change(select('Token'), { target: { value: 'none' } })
    expect(select('Token').value).toBe('none')
    expect(new URLSearchParams(window.location.hash.split('?')[1]).get('token')).toBe('none')
  })

  it('says why a key-value limit refused the call: outside_limit, the limit and the key', async () => {
    const view = await renderWithService(<></>)
    const token = await call(view.service.baseUrl, view.service.secret, 'auth.create', [
      ['$$', 'abilities', ['keyv.get?bucket=users&prefix=alice%2F']],
    ])
    window.location.hash = `#/console?${new URLSearchParams({
      endpoint: 'keyv.get',
      token: `authorization:${token}`,
      'text.bucket': 'users',
      'text.key': 'bob/1',
    })}`
    view.rerender(
      <ConfigProvider config={view.config}>
        <QueryClientProvider client={view.client}>
          <ConsoleView />
        </QueryClientProvider>
      </ConfigProvider>,
    )
    await screen.findByTestId('endpoint-summary')
    send()
    await waitFor(() =>
      expect(screen.getByTestId('answer-status').textContent).toBe('401 Unauthorized'),
    )
    const reason = await screen.findByTestId('refusal-reason')
    expect(reason.textContent).toContain('outside_limit')
    expect(reason.textContent).toContain('covers keyv.get, but not bucket users with key bob/1')
    // And the smallest change that would have let it in, with the ability to compose.
    const counterfactual = within(reason).getByTestId('counterfactual')
    expect(counterfactual.dataset.change).toBe('widen_limit')
    expect(counterfactual.textContent).toBe(
      'What would have let it in: keyv.get?bucket=users&prefix=alice%2F widened to keyv.get?bucket=users would reach bucket users for key bob/1; or add keyv.get?bucket=users&prefix=bob/1' +
        'Compose an authorization with keyv.get?bucket=users (from the refused token: its other abilities, limits and lifetime as they were)',
    )
    // The fix is the refused token itself, with only its limit widened.
    const href = within(counterfactual).getByRole('link').getAttribute('href')!
    const fix = new URLSearchParams(href.split('?')[1])
    expect(fix.getAll('ability')).toEqual(['keyv.get?bucket=users'])
    expect(fix.getAll('was')).toEqual(['keyv.get?bucket=users&prefix=alice%2F'])
    expect(fix.get('from')).toBe('refused')
  })

  it('warns when an expiry looks like milliseconds, and still sends it', async () => {
    const { service } = await openConsole({
      endpoint: 'auth.create',
      'arg.abilities': '["core"]',
      'arg.expiry': '1767225600000',
    })
    expect((await screen.findByTestId('expiry-warning')).textContent).toMatch(
      /looks like milliseconds.*1767225600/,
    )
    send()
    await waitFor(async () => expect(await exchanges(service.baseUrl)).toHaveLength(1))
  })

  it('says a copied curl command needs the service running outside the page', async () => {
    const writes: string[] = []
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: async (text: string) => void writes.push(text) },
    })
    onTestFinished(() => void vi.unstubAllGlobals())
    await openConsole({ endpoint: 'core.ping' })
    const note = screen.getByTestId('serve-note')
    expect(note.textContent).toMatch(/exists only inside this page/)
    expect(note.textContent).toContain('npm run serve')
    expect(screen.getByTestId('serve-curl').textContent).toContain(
      "curl -X POST 'http://127.0.0.1:8787/core/ping'",
    )
    fireEvent.click(screen.getByRole('button', { name: 'Copy as curl' }))
    await waitFor(() => expect(writes).toHaveLength(1))
    expect(writes[0]).toMatch(/^# .* exists only inside the playground page/)
    expect(writes[0]).toContain('npm run serve')
  })
})
