import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ExchangeRecord } from '../../engine'
import type { Service } from '../../node'
import { renderWithService } from '../../testing/render'
import { listRemembered } from '../shared/page-store'
import { refusalOf } from '../shared/refusal'
import { navHref, parseRoute, replaceParams } from '../shared/router'
import { resetPlayground } from '../shared/reset-account'
import { ScenarioNote } from './scenario-note'
import { ScenarioPicker } from './scenario-picker'

const Picker = () => (
  <>
    <ScenarioNote />
    <ScenarioPicker />
  </>
)

async function exchanges(service: Service): Promise<ExchangeRecord[]> {
  const response = await fetch(`${service.baseUrl}/_account/exchanges`)
  return ((await response.json()) as { exchanges: ExchangeRecord[] }).exchanges
}

const load = (title: string) => fireEvent.click(screen.getByRole('button', { name: title }))
const route = () => parseRoute(window.location.hash)

/** A scenario is loaded by several calls to the engine: under load they take seconds. */
const LOADED = { timeout: 10_000 }

describe('starter scenarios', { timeout: 30_000 }, () => {
  it("loads a browser token for one user's notes and opens Key-value acting with it", async () => {
    const { service, config } = await renderWithService(<Picker />)
    load("A browser token for one user's notes")
    await waitFor(() => expect(route().view).toBe('keyv'), LOADED)
    const [saved] = await listRemembered(config)
    expect(route().params.get('token')).toBe(`authorization:${saved!.token}`)
    expect(await service.engine.account.listBuckets()).toEqual([{ bucket: 'notes', keys: 3 }])
    const report = await service.engine.account.inspect(saved!.token)
    expect(report.details?.abilities).toEqual([
      'keyv.get?bucket=notes&prefix=alice%2F',
      'keyv.set?bucket=notes&prefix=alice%2F',
      'keyv.scan?bucket=notes&prefix=alice%2F',
    ])
    expect(screen.getByTestId('scenario-note').textContent).toMatch(
      /^Scenario: A browser token for one user's notes\. Acting with Alice's authorization/,
    )
    fireEvent.click(
      within(screen.getByTestId('scenario-note')).getByRole('button', { name: 'Dismiss' }),
    )
    expect(screen.queryByTestId('scenario-note')).toBeNull()
  })

  it('loads a token that expires, and opens Authorizations; the console opens with that token, not the last one', async () => {
    const { service, config } = await renderWithService(<Picker />)
    // The console as a person left it before, with a token the reset kills.
    replaceParams('console', { endpoint: 'core.ping', token: 'authorization:old.token' })
    replaceParams('keyv', { token: 'authorization:old.token' })
    window.location.hash = '#/secrets'
    load('A token that expires')
    await waitFor(() => expect(route().view).toBe('authorizations'), LOADED)
    const [saved] = await listRemembered(config)
    const report = await service.engine.account.inspect(saved!.token)
    expect(report.details!.expiresAt! - (await service.now())).toBeGreaterThan(290)
    const console = parseRoute(navHref('console')).params
    expect(console.get('token')).toBe(`authorization:${saved!.token}`)
    expect(console.get('endpoint')).toBe('type.string.reverse')
    expect(navHref('keyv')).toBe('#/keyv')
  })

  it('opens every view afresh after a reset: no view keeps a token the reset killed', async () => {
    const { config, client } = await renderWithService(<Picker />)
    replaceParams('console', { token: 'authorization:old.token' })
    replaceParams('authorizations', { inspect: 'authorization:old.token' })
    window.location.hash = '#/settings'
    await resetPlayground(config, client)
    expect(navHref('console')).toBe('#/console')
    expect(navHref('authorizations')).toBe('#/authorizations')
  })

  it('loads a leaked secret rolling in an hour, with what dies, and opens Secrets', async () => {
    const { service, config } = await renderWithService(<Picker />)
    const [start] = await service.listSecrets()
    load('Rolling a leaked secret')
    // Secrets is also the view of an empty fragment: wait for the fragment itself.
    await waitFor(() => expect(window.location.hash).toBe('#/secrets'), LOADED)
    const secrets = await service.listSecrets()
    // The starting secret (the same key after the reset the scenario begins with) rolls.
    expect(secrets.find((s) => s.key === start!.key)).toMatchObject({ state: 'rolling' })
    expect(secrets).toHaveLength(2)
    expect(await listRemembered(config)).toHaveLength(2)
  })

  it('loads stored procedures and an authorization that may call one, and opens Procedures', async () => {
    const { service } = await renderWithService(<Picker />)
    load('Stored procedures')
    await waitFor(() => expect(route().view).toBe('procedures'), LOADED)
    expect((await service.engine.account.listProcedures()).map((p) => p.name)).toEqual([
      'greet',
      'shout',
    ])
    expect(route().params.get('token')).toMatch(/^authorization:/)
  })

  it('loads three refusals of three kinds, and opens the log on refusals', async () => {
    const { service } = await renderWithService(<Picker />)
    load('Why was I refused')
    await waitFor(() => expect(route().view).toBe('log'), LOADED)
    expect(route().params.get('code')).toBe('refused')
    const codes = (await exchanges(service))
      .filter((record) => record.response.status >= 400)
      .map((record) => refusalOf(record.trace)?.code)
    expect(codes.sort()).toEqual(['expired', 'missing_ability', 'outside_limit'])
  })

  it('asks before replacing an account that holds something, and loads only once told', async () => {
    const { service } = await renderWithService(<Picker />)
    await fetch(`${service.baseUrl}/keyv/set?key=mine&value=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.secret}` },
    })
    window.location.hash = '#/settings'
    load('A token that expires')
    const question = await screen.findByRole('group', { name: 'Confirm the scenario' })
    expect(question.textContent).toMatch(/The account is reset first/)
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }))
    expect(await service.engine.account.listBuckets()).toEqual([{ bucket: 'default', keys: 1 }])
    expect(route().view).toBe('settings')

    load('A token that expires')
    fireEvent.click(await screen.findByRole('button', { name: 'Reset and load the scenario' }))
    await waitFor(() => expect(route().view).toBe('authorizations'), LOADED)
    expect(await service.engine.account.listBuckets()).toEqual([])
  })
})
