import { encode } from '@msgpack/msgpack'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import type { Service } from '../../node'
import { renderWithService } from '../../testing/render'
import { ExchangeLogFollower } from '../shared/exchange-log'
import type { Har } from './har'
import LogView from './log-view'

/** The view, with the app's reader of the exchange log running beside it. */
const Followed = () => (
  <>
    <ExchangeLogFollower />
    <LogView />
  </>
)

afterEach(() => vi.restoreAllMocks())

interface Send {
  token?: string | null
  contentType?: string
  accept?: string
  query?: string
  body?: string | Uint8Array
}

/** A request from the test itself, as any code in the page would send it. */
function send(service: Service, name: string, options: Send = {}): Promise<Response> {
  const { token = service.secret, contentType = 'text/plain', accept, query, body } = options
  const headers: Record<string, string> = { 'content-type': contentType }
  if (token) headers.authorization = `Bearer ${token}`
  if (accept) headers.accept = accept
  const url = `${service.baseUrl}/${name.replaceAll('.', '/')}${query ? `?${query}` : ''}`
  const payload = body instanceof Uint8Array ? new Uint8Array(body) : body
  return fetch(url, { method: 'POST', headers, body: payload })
}

const tuples = (service: Service, name: string, value: unknown, token?: string) =>
  send(service, name, {
    token: token ?? service.secret,
    contentType: `application/vnd.${service.serviceName}+json`,
    body: JSON.stringify(value),
  })

/** An authorization made with the secret key. */
async function authorize(service: Service, abilities: string[], ttl?: number): Promise<string> {
  const response = await send(service, 'auth.create', {
    contentType: `application/vnd.${service.serviceName}+json`,
    accept: 'text/plain',
    body: JSON.stringify([
      ['$$', 'abilities', abilities],
      ...(ttl === undefined ? [] : [['$$', 'ttl', ttl]]),
    ]),
  })
  expect(response.status).toBe(200)
  return response.text()
}

const rows = () => screen.getAllByTestId('exchange-row')
const endpoints = () => rows().map((row) => row.querySelector('a')!.textContent)

/** Opens the newest exchange whose endpoint is `name`, and answers its detail. */
async function open(name: string): Promise<HTMLElement> {
  // The list polls once a second: the request may not be listed yet.
  const row = await waitFor(
    () => {
      const found = rows().find((candidate) => candidate.querySelector('a')!.textContent === name)
      expect(found, `a row for ${name}`).toBeTruthy()
      return found
    },
    { timeout: 3000 },
  )
  fireEvent.click(within(row!).getByRole('link'))
  const id = row!.dataset.exchangeId
  await waitFor(() =>
    expect(screen.getByTestId('exchange-detail').querySelector('h3')!.textContent).toBe(
      `Exchange #${id}: ${name}`,
    ),
  )
  return screen.getByTestId('exchange-detail')
}

const calls = (detail: HTMLElement) => within(detail).getAllByTestId('trace-call')

describe('LogView', () => {
  it('lists the requests sent with fetch, newest first, with the token masked', async () => {
    const { service } = await renderWithService(<Followed />)
    expect(await screen.findByText(/No requests yet/)).toBeTruthy()
    await send(service, 'type.string.reverse', { body: 'hello' })
    await send(service, 'core.ping')
    await waitFor(() => expect(endpoints()).toEqual(['core.ping', 'type.string.reverse']), {
      timeout: 3000,
    })
    const [ping] = rows()
    expect(within(ping!).getByText('200 OK')).toBeTruthy()
    expect(within(ping!).getByText('secret')).toBeTruthy()
    const masked = within(ping!).getByTestId('masked-value').textContent!
    expect(masked).not.toContain(service.secret)
    expect(masked).toMatch(/^.{6}….{4}$/)

    await send(service, 'core.echo', { body: 'later' })
    await waitFor(() => expect(endpoints()[0]).toBe('core.echo'), { timeout: 3000 })
    expect(endpoints()).toHaveLength(3)
  })

  it('filters by status class, by one status and by endpoint', async () => {
    const { service } = await renderWithService(<Followed />)
    await send(service, 'core.ping')
    await send(service, 'core.ping', { token: null })
    await send(service, 'type.string.nothing')
    await send(service, 'type.string.upcase', { body: 'a' })
    await waitFor(() => expect(rows()).toHaveLength(4), { timeout: 3000 })

    const status = screen.getByLabelText('Status')
    fireEvent.change(status, { target: { value: '4xx' } })
    expect(endpoints()).toEqual(['type.string.nothing', 'core.ping'])
    fireEvent.change(status, { target: { value: '401' } })
    expect(endpoints()).toEqual(['core.ping'])
    expect(within(rows()[0]!).getByText('401 Unauthorized')).toBeTruthy()
    expect(within(rows()[0]!).getByText('no token')).toBeTruthy()

    fireEvent.change(status, { target: { value: '2xx' } })
    fireEvent.change(screen.getByLabelText('Endpoint contains'), { target: { value: 'STRING' } })
    expect(endpoints()).toEqual(['type.string.upcase'])
    expect(screen.getByRole('status').textContent).toMatch(/^1 of 4 exchanges match/)
    expect(window.location.hash).toBe('#/log?status=2xx&endpoint=STRING')

    fireEvent.change(status, { target: { value: '5xx' } })
    expect(screen.getByText('No exchange matches these filters.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Show every exchange' }))
    expect(rows()).toHaveLength(4)
  })

  it('tells a missing ability from a key-value limit, though the wire says the same', async () => {
    const { service } = await renderWithService(<Followed />)
    const token = await authorize(service, ['keyv.get?bucket=users&prefix=alice/'])
    const outside = await send(service, 'keyv.get', { token, body: 'bob/1', query: 'bucket=users' })
    const missing = await send(service, 'keyv.set', {
      token,
      body: 'alice/1',
      query: 'bucket=users&value=x',
    })
    expect([outside.status, missing.status]).toEqual([401, 401])

    const limited = await open('keyv.get')
    expect(within(limited).getByTestId('credential-explanation').textContent).toMatch(
      /^an authorization from secret sec_\S+ holding keyv\.get\?bucket=users&prefix=alice\/; it never expires$/,
    )
    const [refused] = calls(limited)
    expect(refused!.dataset.decision).toBe('refused')
    expect(refused!.textContent).toContain('Outside the key-value limit')
    expect(refused!.textContent).toContain('outside_limit')
    expect(refused!.textContent).toContain(
      'keyv.get?bucket=users&prefix=alice/ covers keyv.get, but not bucket users with key bob/1: the call is outside its key-value limits',
    )
    expect(within(limited).getByTestId('outside-limit-note')).toBeTruthy()
    // The smallest change that would have let it in, on the call it refused, said once.
    expect(within(refused!).getByTestId('counterfactual').textContent).toMatch(
      /^What would have let it in: keyv\.get\?bucket=users&prefix=alice\/ widened to keyv\.get\?bucket=users would reach/,
    )
    expect(within(limited).getAllByTestId('counterfactual')).toHaveLength(1)
    expect(within(limited).getByTestId('wire-error').textContent).toBe(
      'Error message: authorization does not have the ability to access service keyv.get',
    )

    const unable = await open('keyv.set')
    const [denied] = calls(unable)
    expect(denied!.textContent).toContain('No ability covers the endpoint')
    expect(denied!.textContent).toContain('missing_ability')
    expect(denied!.textContent).toContain(
      'no ability covers keyv.set; the authorization holds keyv.get?bucket=users&prefix=alice/',
    )
    expect(within(unable).queryByTestId('outside-limit-note')).toBeNull()
  })

  it("explains an expired authorization's credential, on the virtual clock", async () => {
    const { service } = await renderWithService(<Followed />)
    const token = await authorize(service, ['core'], 60)
    const expiresAt = (await service.now()) + 60
    await service.advanceClock(61)
    expect((await send(service, 'core.ping', { token })).status).toBe(401)
    const detail = await open('core.ping')
    const credential = within(detail).getByTestId('trace-credential')
    expect(within(credential).getByText('Authorization')).toBeTruthy()
    expect(within(credential).getByText('refused: expired')).toBeTruthy()
    const explanation = within(credential).getByTestId('credential-explanation').textContent!
    const at = /^the authorization expired at (\S+ \S+) UTC \(virtual clock\)$/.exec(explanation)
    expect(at, explanation).not.toBeNull()
    expect(Math.abs(Date.parse(`${at![1]!.replace(' ', 'T')}Z`) / 1000 - expiresAt)).toBeLessThan(2)
    expect(within(credential).getByText('Expired')).toBeTruthy()
    expect(credential.textContent).toMatch(/Root secretsec_/)
    expect(credential.textContent).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(virtual\)/)
    expect(within(detail).getByText('No endpoint was called', { exact: false })).toBeTruthy()
    const outcome = within(detail).getByTestId('trace-outcome')
    expect(outcome.textContent).toContain('401 Unauthorized Authorization expired, code expired')
    expect(within(credential).getByTestId('counterfactual').textContent).toMatch(
      /^What would have let it in: called before \S+ \S+ UTC \(virtual clock\) it would have passed; or mint it again with a later expiry or a longer ttlMint it again \(its abilities, limits and lifetime, from a live secret\)$/,
    )
    expect(within(outcome).queryByTestId('counterfactual')).toBeNull()
    // No word said twice in a row; numbers may be (`2026-11-23 23:10`, on the 23rd at 23h).
    expect(detail.textContent).not.toMatch(/\b([a-z]+) \1\b/i)
  })

  it('says when the secret of an authorization was rolled', async () => {
    const { service } = await renderWithService(<Followed />)
    const token = await authorize(service, ['core'])
    const [secret] = await service.listSecrets()
    await service.rollSecret(secret!.id)
    expect((await send(service, 'core.ping', { token })).status).toBe(401)
    const credential = within(await open('core.ping')).getByTestId('trace-credential')
    expect(within(credential).getByText('refused: its secret was rolled')).toBeTruthy()
    expect(within(credential).getByTestId('credential-explanation').textContent).toMatch(
      new RegExp(`^its secret ${secret!.id} was rolled; every authorization from it died at `),
    )
    expect(within(credential).getByText('Its secret died (rolled)')).toBeTruthy()
  })

  it("indents a composition's inner calls, each with its own decision", async () => {
    const { service } = await renderWithService(<Followed />)
    const token = await authorize(service, ['core.exec', 'type.string'])
    const proc = ['{}', ['>>', 'abc'], ['()', 'type.string.reverse'], ['()', 'keyv.get']]
    expect((await tuples(service, 'core.exec', [['$$', 'proc', proc]], token)).status).toBe(401)
    const detail = await open('core.exec')
    const traced = calls(detail).map((call) => [
      call.querySelector('.log-call-endpoint')!.textContent,
      call.dataset.depth,
      call.dataset.decision,
    ])
    expect(traced).toEqual([
      ['core.exec', '0', 'aborted'],
      ['type.string.reverse', '1', 'allowed'],
      ['keyv.get', '1', 'refused'],
    ])
    const [exec, reverse, get] = calls(detail)
    expect(exec!.getAttribute('aria-level')).toBe('1')
    expect(reverse!.getAttribute('aria-level')).toBe('2')
    expect(reverse!.style.getPropertyValue('--depth')).toBe('1')
    expect(reverse!.textContent).toContain('ability type.string covers type.string.reverse')
    expect(reverse!.textContent).not.toContain('Let in by')
    expect(exec!.textContent).toContain('Let in by ability core.exec')
    expect(get!.textContent).toContain('missing_ability')
  })

  it('decodes a MessagePack exchange from base64, and shows its bytes in hex', async () => {
    const { service } = await renderWithService(<Followed />)
    const packed = encode([['>>', { greeting: 'hi' }]])
    await send(service, 'core.echo', {
      contentType: `application/vnd.${service.serviceName}+msgpack`,
      body: packed,
    })
    const detail = await open('core.echo')
    const request = within(detail).getByLabelText('Request body (decoded)')
    expect(JSON.parse(request.textContent!)).toEqual([['>>', { greeting: 'hi' }]])
    const views = within(detail).getByRole('group', { name: 'Request body: how to read it' })
    fireEvent.click(within(views).getByRole('button', { name: 'Hex' }))
    const hex = within(detail).getByLabelText('Request body (hex)').textContent!
    expect(hex.split(/\s+/)).toEqual([...packed].map((byte) => byte.toString(16).padStart(2, '0')))
    expect(
      JSON.parse(within(detail).getByLabelText('Response body (decoded)').textContent!),
    ).toEqual([['<<', { greeting: 'hi' }]])
  })

  it('shows where a malformed JSON body went wrong', async () => {
    const { service } = await renderWithService(<Followed />)
    await send(service, 'core.echo', { contentType: 'application/json', body: '{"a": }' })
    const detail = await open('core.echo')
    expect(within(detail).getByTestId('outcome-message').textContent).toBe(
      'the body is not valid JSON: unexpected "}" at line 1, column 7',
    )
    expect(within(detail).getByTestId('error-place').textContent).toBe('}')
    expect(within(detail).getByTestId('wire-error').textContent).toBe(
      'Error message: the body is not valid JSON: unexpected "}" at line 1, column 7',
    )
  })

  it('masks the authorization an auth.create answered until revealed', async () => {
    const { service } = await renderWithService(<Followed />)
    const token = await authorize(service, ['core'])
    const detail = await open('auth.create')
    const body = within(detail).getByLabelText('Response body (raw)')
    expect(body.textContent).not.toContain(token)
    fireEvent.click(
      within(detail).getByRole('button', { name: 'Reveal the tokens in the response body' }),
    )
    expect(body.textContent).toBe(token)
  })

  it('closes the detail with Escape, and opens by the URL', async () => {
    const { service } = await renderWithService(<Followed />)
    await send(service, 'core.ping')
    window.location.hash = '#/log?id=1'
    const detail = await screen.findByTestId('exchange-detail', {}, { timeout: 3000 })
    await waitFor(() => expect(document.activeElement?.id).toBe('log-detail-heading'))
    fireEvent.keyDown(detail, { key: 'Escape' })
    await waitFor(() => expect(screen.queryByTestId('exchange-detail')).toBeNull())
    expect(window.location.hash).toBe('#/log')
    window.location.hash = '#/log?id=99'
    expect(await screen.findByText(/Exchange #99 is not in this tab's log/)).toBeTruthy()
  })

  it('clears the log with the engine, and follows a clear made elsewhere', async () => {
    const { service } = await renderWithService(<Followed />)
    await send(service, 'core.ping')
    await screen.findAllByTestId('exchange-row', {}, { timeout: 3000 })
    fireEvent.click(screen.getByRole('button', { name: 'Clear log' }))
    expect(await screen.findByText(/No requests yet/)).toBeTruthy()
    const page = (await (await fetch(`${service.baseUrl}/_account/exchanges`)).json()) as {
      exchanges: unknown[]
    }
    expect(page.exchanges).toEqual([])
    await send(service, 'core.echo', { body: 'again' })
    await waitFor(() => expect(endpoints()).toEqual(['core.echo']), { timeout: 3000 })

    // Emptied elsewhere (the devtools console, a reset in Settings): the list follows.
    await fetch(`${service.baseUrl}/_account/exchanges/clear`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    await send(service, 'core.ping')
    await waitFor(() => expect(endpoints()).toEqual(['core.ping']), { timeout: 3000 })
  })

  it('exports the exchanges shown as HAR 1.2', async () => {
    const { service } = await renderWithService(<Followed />)
    await send(service, 'type.string.reverse', { body: 'hello', query: 'unused=1' })
    await send(service, 'core.echo', {
      contentType: `application/vnd.${service.serviceName}+msgpack`,
      body: encode([['>>', 1]]),
    })
    await waitFor(() => expect(rows()).toHaveLength(2), { timeout: 3000 })

    // jsdom makes no object URLs and downloads nothing: the blob is caught on its way out.
    const blobs: Blob[] = []
    const { createObjectURL, revokeObjectURL } = URL
    URL.createObjectURL = vi.fn((blob: Blob) => (blobs.push(blob), 'blob:har'))
    URL.revokeObjectURL = vi.fn()
    onTestFinished(() => {
      URL.createObjectURL = createObjectURL
      URL.revokeObjectURL = revokeObjectURL
    })
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    fireEvent.click(screen.getByRole('button', { name: 'Export HAR' }))
    expect(click).toHaveBeenCalledOnce()
    const link = click.mock.contexts[0] as HTMLAnchorElement
    expect(link.download).toMatch(/^service-exchanges-.+\.har$/)

    const har = JSON.parse(await blobs[0]!.text()) as Har
    expect(har.log.version).toBe('1.2')
    expect(har.log.creator.name).toBeTruthy()
    const [reverse, echo] = har.log.entries
    expect(reverse!.request).toMatchObject({
      method: 'POST',
      url: `${service.baseUrl}/type/string/reverse?unused=1`,
      queryString: [{ name: 'unused', value: '1' }],
      postData: { mimeType: 'text/plain', text: 'hello' },
      bodySize: 5,
    })
    expect(reverse!.request.headers).toContainEqual({
      name: 'authorization',
      value: `Bearer ${service.secret}`,
    })
    expect(reverse!.response.status).toBe(200)
    expect(reverse!.response.content).toMatchObject({ size: 5, text: 'olleh' })
    expect(reverse!.response.content.mimeType).toMatch(/^text\/plain/)
    expect(Date.parse(reverse!.startedDateTime)).not.toBeNaN()
    expect(reverse!.time).toBe(reverse!.timings.wait)
    expect(echo!.request.postData).toMatchObject({ _encoding: 'base64' })
    expect(echo!.response.content.encoding).toBe('base64')
    expect(atob(echo!.response.content.text!)).toBeTruthy()
    expect(screen.getByText(/It holds the tokens these requests sent, in full/)).toBeTruthy()
  })
})

describe('LogView: names that hide characters', () => {
  it('marks invisible characters in the trace and the query', async () => {
    const { service } = await renderWithService(<Followed />)
    const token = await authorize(service, ['keyv.get?bucket=users&prefix=bob'])
    await send(service, 'keyv.get', { token, query: 'bucket=users&key=admin%E2%80%8B' })
    const detail = await open('keyv.get')
    const [refused] = calls(detail)
    expect(refused!.textContent).not.toContain('\u200B')
    expect(refused!.textContent).toContain('adminU+200B')
    const query = detail.querySelector('[aria-label="Query arguments"]')!.textContent!
    expect(query).not.toContain('\u200B')
    expect(query).toContain('adminU+200B')
  })

  it(
    'opens any exchange in the console: its endpoint, body and format, with the token chosen',
    { timeout: 20_000 },
    async () => {
      const { service } = await renderWithService(<Followed />)
      const token = await authorize(service, ['keyv.get?bucket=users&prefix=alice/'])
      const body = [
        ['$$', 'bucket', 'users'],
        ['$$', 'key', 'bob/1'],
      ]
      expect((await tuples(service, 'keyv.get', body, token)).status).toBe(401)
      const detail = await open('keyv.get')
      const reopen = within(detail).getByTestId('open-in-console')
      const link = () => {
        const href = within(reopen)
          .getByRole('link', { name: 'Open in the console' })
          .getAttribute('href')!
        expect(href.startsWith('#/console?')).toBe(true)
        return new URLSearchParams(href.slice('#/console?'.length))
      }
      await waitFor(() => expect(link().get('token')).toBe(`authorization:${token}`))
      expect(link().get('endpoint')).toBe('keyv.get')
      expect(link().get('format')).toBe('tuples')
      expect(JSON.parse(link().get('raw')!)).toEqual(body)
      // Another token, chosen here: the secret.
      const [secret] = await service.listSecrets()
      fireEvent.change(within(reopen).getByLabelText('Send it again with'), {
        target: { value: `secret:${secret!.id}` },
      })
      expect(link().get('token')).toBe(`secret:${secret!.id}`)

      // Text and the query string come back as they were sent.
      await send(service, 'type.string.truncate', { query: 'length=2', body: 'hello' })
      const text = await open('type.string.truncate')
      const again = new URLSearchParams(
        within(text)
          .getByRole('link', { name: 'Open in the console' })
          .getAttribute('href')!
          .split('?')[1],
      )
      expect([...again]).toEqual([
        ['endpoint', 'type.string.truncate'],
        ['token', `secret:${secret!.id}`],
        ['format', 'text'],
        ['input.text', 'hello'],
        ['text.length', '2'],
      ])
    },
  )
})
