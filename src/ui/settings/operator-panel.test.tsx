import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Service } from '../../node'
import { renderWithService } from '../../testing/render'
import { OperatorPanel } from './operator-panel'

const call = (service: Service, path: string, init: RequestInit = {}) =>
  fetch(`${service.baseUrl}/${path}`, {
    method: 'POST',
    ...init,
    headers: { authorization: `Bearer ${service.secret}`, ...init.headers },
  })

const change = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } })

describe('the operator controls in Settings', { timeout: 20_000 }, () => {
  it('sets a fault for one endpoint and a number of calls, which a client then meets', async () => {
    const { service } = await renderWithService(<OperatorPanel />)
    expect(await screen.findByTestId('no-faults')).toBeTruthy()
    change('Status', '429')
    change('retry-after (seconds)', '7')
    change('Endpoint or package (empty for any)', 'type.string')
    change('Calls', '2')
    fireEvent.click(screen.getByRole('button', { name: 'Add the fault' }))
    const listed = await screen.findByTestId('fault')
    expect(listed.textContent).toMatch(
      /^429 \(retry-after 7 s\) to type\.string with any token: the next 2 calls/,
    )
    const faulted = await call(service, 'type/string/reverse', { body: 'abc' })
    expect([
      faulted.status,
      faulted.headers.get('retry-after'),
      faulted.headers.get('x-fault'),
    ]).toEqual([429, '7', '429'])
    expect((await call(service, 'core/ping')).status).toBe(200)
    await call(service, 'type/string/reverse', { body: 'abc' })
    expect(await (await call(service, 'type/string/reverse', { body: 'abc' })).text()).toBe('cba')
    // Used up: the list says so on its next read.
    await waitFor(() => expect(screen.getByTestId('no-faults')).toBeTruthy(), { timeout: 5000 })
  })

  it('sets a dropped connection for every call with one token, and clears it', async () => {
    const { service } = await renderWithService(<OperatorPanel />)
    await screen.findByTestId('no-faults')
    change('Fault', 'network')
    await waitFor(() =>
      expect(within(screen.getByLabelText('Token')).getAllByRole('option').length).toBeGreaterThan(
        1,
      ),
    )
    const token = screen.getByLabelText('Token') as HTMLSelectElement
    fireEvent.change(token, { target: { value: token.options[1]!.value } })
    fireEvent.click(screen.getByLabelText('every call, until cleared'))
    fireEvent.click(screen.getByRole('button', { name: 'Add the fault' }))
    expect((await screen.findByTestId('fault')).querySelector('span')!.textContent).toMatch(
      /^a dropped connection to any endpoint with token .*: every call until cleared$/,
    )
    await expect(call(service, 'core/ping')).rejects.toThrow()
    fireEvent.click(screen.getByRole('button', { name: 'Clear every fault' }))
    await screen.findByTestId('no-faults')
    expect((await call(service, 'core/ping')).status).toBe(200)
  })

  it('turns strict mode on and reports what a client should fix', async () => {
    const { service } = await renderWithService(<OperatorPanel />)
    const toggle = (await screen.findByRole('checkbox', {
      name: /^Refuse what a lenient server/,
    })) as HTMLInputElement
    await waitFor(() => expect(toggle.disabled).toBe(false))
    fireEvent.click(toggle)
    await screen.findByTestId('strict-report')
    const refused = await call(service, 'core/echo', {
      headers: { 'content-type': 'text/plain' },
      body: '{"a": 1}',
    })
    expect(refused.status).toBe(400)
    await waitFor(
      () =>
        expect(screen.getByTestId('strict-report').textContent).toMatch(
          /1 with something a client should fix:.*the body is JSON sent as text/,
        ),
      { timeout: 5000 },
    )
  })

  it('enforces the rate limit: a call past it answers 429', async () => {
    const { service } = await renderWithService(<OperatorPanel />)
    expect((await screen.findByTestId('rate-now')).textContent).toMatch(/counted only/)
    fireEvent.click(screen.getByRole('checkbox', { name: 'Enforce it' }))
    change('Calls allowed', '2')
    fireEvent.click(screen.getByRole('button', { name: 'Set the rate limit' }))
    await waitFor(() =>
      expect(screen.getByTestId('rate-now').textContent).toMatch(
        /^Now: 2 calls per 60 s, enforced/,
      ),
    )
    expect((await call(service, 'core/ping')).status).toBe(200)
    expect((await call(service, 'core/ping')).status).toBe(200)
    expect((await call(service, 'core/ping')).status).toBe(429)
  })
})
