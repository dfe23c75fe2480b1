import { QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { ReactElement } from 'react'
import { describe, expect, it } from 'vitest'
import type { ExchangeRecord } from '../../engine'
import { keys } from '../shared/queries'
import { navHref } from '../shared/router'
import { ConfigProvider } from '../shared/config'
import { renderWithService } from '../../testing/render'
import { ExchangeLogFollower } from '../shared/exchange-log'
import AuthorizationsView from './authorizations-view'
import { toDateTimeLocal } from './compose'

/** The view, with the app's reader of the exchange log running beside it. */
const Followed = () => (
  <>
    <ExchangeLogFollower />
    <AuthorizationsView />
  </>
)

type Rendered = Awaited<ReturnType<typeof renderWithService>>

/** What the clock bar and the secrets view do after moving the account: refetch it all. */
const refetchAccount = ({ client, service }: Rendered) =>
  client.invalidateQueries({ queryKey: keys.account(service.baseUrl) })

async function render() {
  const rendered = await renderWithService(<Followed />)
  await screen.findByRole('treeitem', { name: 'type' }, { timeout: 5000 })
  return rendered
}

/** An ability's item in the catalogue tree. */
const item = (name: string) => screen.getByRole('treeitem', { name })
const tick = (name: string) => fireEvent.click(item(name).querySelector('.tree-row')!)
const expand = (name: string) => fireEvent.keyDown(item(name), { key: 'ArrowRight' })
const snippet = (id: string) => screen.getByTestId(`snippet-${id}`).textContent ?? ''
const create = () => fireEvent.click(screen.getByRole('button', { name: 'Create authorization' }))
const rows = () => screen.queryAllByTestId('authorization-row')
const stateOf = (row: HTMLElement) => within(row).getByTestId('authorization-state').textContent

async function exchanges(baseUrl: string): Promise<ExchangeRecord[]> {
  const response = await fetch(`${baseUrl}/_account/exchanges`)
  return ((await response.json()) as { exchanges: ExchangeRecord[] }).exchanges
}

async function mint(service: Rendered['service'], args: object, token = service.secret) {
  const tuples = Object.entries(args).map(([name, value]) => ['$$', name, value])
  const made = await fetch(`${service.baseUrl}/auth/create`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `application/vnd.${service.serviceName}+json`,
      accept: 'text/plain',
    },
    body: JSON.stringify(tuples),
  })
  expect(made.status).toBe(200)
  return made.text()
}

// Each test drives the real engine through several requests; the machine may be busy.
describe('AuthorizationsView', { timeout: 30_000 }, () => {
  it('builds abilities from the tree and a key-value limit, and shows the exact request', async () => {
    const { service } = await render()
    tick('type')
    expand('type')
    expect(item('type.string').getAttribute('aria-disabled')).toBe('true')
    expect(item('type.string').getAttribute('aria-checked')).toBe('true')
    expand('keyv')
    tick('keyv.get')
    expect(
      screen.getByText('Reads the value stored under the key; null when there is none.'),
    ).toBeTruthy()

    fireEvent.change(screen.getByLabelText('Key-value ability'), { target: { value: 'keyv.set' } })
    fireEvent.change(screen.getByLabelText('Bucket'), { target: { value: 'users' } })
    fireEvent.change(screen.getByLabelText('Key prefix'), { target: { value: 'alice/' } })
    expect(screen.getByTestId('keyv-ability').textContent).toBe(
      'keyv.set?bucket=users&prefix=alice%2F',
    )
    fireEvent.click(screen.getByRole('button', { name: 'Add key-value ability' }))
    fireEvent.change(screen.getByLabelText('Time to live (seconds)'), { target: { value: '60' } })

    const abilities = ['type', 'keyv.get', 'keyv.set?bucket=users&prefix=alice%2F']
    const body = JSON.stringify([
      ['$$', 'abilities', abilities],
      ['$$', 'ttl', 60],
    ])
    const http = snippet('http')
    expect(http).toContain(`POST ${service.baseUrl}/auth/create`)
    expect(http).toContain(`content-type: application/vnd.${service.serviceName}+json`)
    expect(http).not.toContain(service.secret)
    expect(http.endsWith(`\n\n${body}`)).toBe(true)
    expect(snippet('curl')).toContain(`--data-binary '${body}'`)
    expect(snippet('fetch')).toContain(`body: ${JSON.stringify(body)}`)
    expect(snippet('client')).toBe(
      `await client.auth.create({ abilities: ${JSON.stringify(abilities)}, ttl: 60 })`,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Reveal the token' }))
    expect(snippet('curl')).toContain(`authorization: Bearer ${service.secret}`)

    fireEvent.change(screen.getByLabelText('Body format'), { target: { value: 'msgpack' } })
    expect(snippet('http')).toMatch(
      /\n\n[0-9a-f]{2} [0-9a-f]{2} .*\(MessagePack, \d+ bytes, in hex\)$/s,
    )
  })

  it('creates with a ttl; it expires on the engine clock, and dies when its secret rolls', async () => {
    const rendered = await render()
    const { service } = rendered
    tick('type')
    fireEvent.change(screen.getByLabelText('Time to live (seconds)'), { target: { value: '60' } })
    create()
    expect((await screen.findByTestId('send-answer')).textContent).toMatch(/^200 OK: created/)
    await waitFor(() => expect(rows()).toHaveLength(1))
    await waitFor(() => expect(stateOf(rows()[0]!)).toBe('usable'))
    const [secret] = await service.listSecrets()
    expect(within(rows()[0]!).getByText(secret!.id)).toBeTruthy()

    await service.advanceClock(61)
    await refetchAccount(rendered)
    await waitFor(() => expect(stateOf(rows()[0]!)).toMatch(/^expired at \d{4}-/))

    // A second one, without ttl, is usable until its secret rolls.
    fireEvent.change(screen.getByLabelText('Time to live (seconds)'), { target: { value: '' } })
    create()
    await waitFor(() => expect(rows()).toHaveLength(2))
    await waitFor(() => expect(stateOf(rows()[0]!)).toBe('usable'))
    await service.rollSecret(secret!.id)
    await refetchAccount(rendered)
    await waitFor(() =>
      expect(stateOf(rows()[0]!)).toMatch(/^dead because its secret rolled at \d{4}-/),
    )
    expect(within(rows()[0]!).getByRole('link', { name: 'Use in console' })).toBeTruthy()
  })

  it('flags an insecure ability without the switch, and shows the engine refusing it', async () => {
    await render()
    tick('auth')
    const flagged = screen.getByText(/is insecure/).closest('li')!
    expect(flagged.dataset.level).toBe('engine')
    expect(flagged.textContent).toMatch(/mint authorizations with any abilities/)
    expect(flagged.textContent).toMatch(/needs insecure: true; without it the engine answers 400/)
    create()
    const refusal = await within(await screen.findByTestId('send-answer')).findByRole('alert')
    expect(refusal.textContent).toBe(
      '400 Bad Request: insecure abilities auth are only granted with insecure: true',
    )

    fireEvent.click(screen.getByLabelText(/insecure: true/))
    expect(screen.getByText(/is insecure/).closest('li')!.dataset.level).toBe('warning')
    create()
    await waitFor(() => expect(rows()).toHaveLength(1))
  })

  it('warns about an unknown ability, and says a malformed one will be refused', async () => {
    await render()
    const typed = screen.getByLabelText('Any other ability')
    fireEvent.change(typed, { target: { value: 'types.string' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add' }))
    const warning = screen.getByText(/names nothing that exists/).closest('li')!
    expect(warning.dataset.level).toBe('warning')
    expect(warning.textContent).toBe(
      'Note: types.string names nothing that exists: the engine accepts it, and it grants nothing.',
    )
    fireEvent.change(typed, { target: { value: 'type. string' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add' }))
    const refused = screen.getByText(/is not a name/).closest('li')!
    expect(refused.dataset.level).toBe('engine')
    expect(screen.getByRole('button', { name: 'Create authorization' })).toHaveProperty(
      'disabled',
      false,
    )
  })

  it('offers stored procedures as lib abilities, once one exists', async () => {
    const { service } = await render()
    const typed = screen.getByLabelText('Any other ability')
    fireEvent.change(typed, { target: { value: 'lib.report' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add' }))
    expect(screen.getByText(/No stored procedure/).closest('li')!.textContent).toBe(
      'Note: No stored procedure report exists now: lib.report grants nothing until one is created under that name.',
    )
    const made = await fetch(`${service.baseUrl}/${service.serviceName}/create`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${service.secret}`,
        'content-type': `application/vnd.${service.serviceName}+json`,
      },
      body: JSON.stringify([
        ['$$', 'name', 'report'],
        ['$$', 'proc', ['{}', ['()', 'core.ping']]],
      ]),
    })
    expect(made.status).toBe(200)
    // The exchange log shows the procedure was made; the catalogue tree follows.
    expand('lib')
    const checkbox = await screen.findByRole('treeitem', { name: 'lib.report' }, { timeout: 5000 })
    expect(checkbox.getAttribute('aria-checked')).toBe('true')
    expect(screen.queryByText(/No stored procedure/)).toBeNull()
  })

  it('remembers an authorization minted elsewhere, and warns when it signs', async () => {
    const { service } = await render()
    const token = await mint(service, { abilities: ['auth.create', 'type'], insecure: true })
    await waitFor(() => expect(rows()).toHaveLength(1), { timeout: 5000 })
    const signer = screen.getByLabelText('Signed with (the bearer token)')
    const option = await within(signer).findByRole('option', { name: /auth\.create/ })
    expect(screen.queryByTestId('signer-warning')).toBeNull()
    fireEvent.change(signer, { target: { value: (option as HTMLOptionElement).value } })
    expect(screen.getByTestId('signer-warning').textContent).toMatch(
      /can mint ANY abilities\..*does not narrow/,
    )
    expect(snippet('http')).not.toContain(token)
  })

  it('sends the expiry in Unix seconds', async () => {
    const { service } = await render()
    tick('type')
    const expiry = Math.floor(await service.now()) + 7200
    fireEvent.change(screen.getByLabelText('Expiry (UTC)'), {
      target: { value: toDateTimeLocal(expiry, 'utc') },
    })
    expect(screen.getByTestId('expiry-seconds').textContent).toContain(`expiry: ${expiry}`)
    create()
    await waitFor(() => expect(rows()).toHaveLength(1))
    const [sent] = await exchanges(service.baseUrl)
    expect(JSON.parse(sent!.request.body!.data)).toEqual([
      ['$$', 'abilities', ['type']],
      ['$$', 'expiry', expiry],
    ])
  })

  it('refuses a past expiry in its own words', async () => {
    const { service } = await render()
    tick('type')
    fireEvent.change(screen.getByLabelText('Expiry (UTC)'), {
      target: { value: toDateTimeLocal((await service.now()) - 60, 'utc') },
    })
    expect(screen.getByText(/has already passed on the virtual clock/)).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Create authorization' })).toHaveProperty(
      'disabled',
      true,
    )
  })

  it('keeps the composition in the view URL', async () => {
    window.location.hash = '#/authorizations?ability=type&ttl=60'
    const rendered = await render()
    expect(item('type').getAttribute('aria-checked')).toBe('true')
    expect(snippet('client')).toBe('await client.auth.create({ abilities: ["type"], ttl: 60 })')
    fireEvent.click(screen.getByLabelText(/insecure: true/))
    expect(window.location.hash).toMatch(/^#\/authorizations\?ability=type&insecure=true&ttl=60/)

    // Away and back through the nav's link: the composition is still there.
    const provided = (element: ReactElement) => (
      <ConfigProvider config={rendered.config}>
        <QueryClientProvider client={rendered.client}>{element}</QueryClientProvider>
      </ConfigProvider>
    )
    rendered.rerender(provided(<p>elsewhere</p>))
    window.location.hash = '#/log'
    window.location.hash = navHref('authorizations')
    rendered.rerender(provided(<AuthorizationsView />))
    expect(
      (await screen.findByRole('treeitem', { name: 'type' })).getAttribute('aria-checked'),
    ).toBe('true')
    expect(screen.getByLabelText(/insecure: true/)).toHaveProperty('checked', true)
  })

  it('explains a tampered token as invalid, and a good one in plain words', async () => {
    const { service } = await render()
    const token = await mint(service, { abilities: ['keyv.get?bucket=users&prefix=alice%2F'] })
    const at = Math.floor(token.length / 2)
    const tampered = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`
    const input = screen.getByLabelText('Token')
    expect(input).toHaveProperty('type', 'password')

    fireEvent.change(input, { target: { value: tampered } })
    fireEvent.click(screen.getByRole('button', { name: 'Inspect' }))
    const result = () => screen.getByTestId('inspect-result')
    await waitFor(() =>
      expect(within(result()).getByTestId('inspect-state').textContent).toBe('invalid'),
    )
    expect(result().textContent).toMatch(/signature does not verify/)
    expect(result().textContent).not.toContain(tampered)

    fireEvent.change(input, { target: { value: token } })
    fireEvent.click(screen.getByRole('button', { name: 'Inspect' }))
    await waitFor(() =>
      expect(within(result()).getByTestId('inspect-state').textContent).toBe('usable'),
    )
    expect(result().textContent).toMatch(/keys starting with “alice\/”/)
    expect(result().textContent).toMatch(/never expires/)

    fireEvent.change(input, { target: { value: service.secret } })
    fireEvent.click(screen.getByRole('button', { name: 'Inspect' }))
    await waitFor(() => expect(result().textContent).toMatch(/a secret key: it reaches every/))
    expect(result().textContent).not.toContain(service.secret)
  })

  it('forgets an authorization with a way back', async () => {
    const { service } = await render()
    await mint(service, { abilities: ['type'] })
    await waitFor(() => expect(rows()).toHaveLength(1), { timeout: 5000 })
    fireEvent.click(within(rows()[0]!).getByRole('button', { name: 'Forget' }))
    await waitFor(() => expect(rows()).toHaveLength(0))
    expect((await screen.findByRole('status')).textContent).toMatch(/^Forgotten/)
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }))
    await waitFor(() => expect(rows()).toHaveLength(1))
  })

  it('warns when an expiry is so far off it looks like milliseconds', async () => {
    await render()
    tick('type')
    fireEvent.change(screen.getByLabelText('Expiry (UTC)'), {
      target: { value: '58866-01-02T00:00' },
    })
    const findings = screen.getByRole('list', { name: 'Before sending' })
    await waitFor(() => expect(findings.textContent).toMatch(/looks like milliseconds/))
  })
})
