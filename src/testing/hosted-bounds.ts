import { expect } from 'vitest'
import { MAX_SECRETS } from '../engine/account/secrets'
import { MAX_JOURNAL_BYTES, type ExchangeRecord } from '../engine/operator/exchange-log'
import { MAX_FAULT_RULES } from '../engine/operator/fault-rule'
import { post } from './serve-process'

/**
 * What a hosted account's own control token can make its account grow, on a running `serve`
 * at `url`: a journal of 10,000 large exchanges, secrets, fault rules. Each stays within its
 * bound, and past one the answer is a 403 naming it.
 */
export async function expectHostedBounds(url: string, control: string): Promise<void> {
  const made = await fetch(`${url}/_accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${control}` },
  })
  expect(made.status).toBe(201)
  const account = (await made.json()) as { baseUrl: string; secret: string; controlToken: string }
  const plane = async (path: string, body?: unknown) => {
    const response = await fetch(`${account.baseUrl}/_account/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${account.controlToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: response.status, value: (await response.json()) as unknown }
  }

  expect((await plane('exchanges', { capacity: 10_000 })).status).toBe(200)
  const body = 'x'.repeat(120_000)
  for (let sent = 0; sent < 80; sent += 8) {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        post(`${account.baseUrl}/core/echo`, account.secret, body, {
          'content-type': 'text/plain',
        }),
      ),
    )
    expect(answers.map(({ status }) => status)).toEqual(Array(8).fill(200))
  }
  const journal = (await plane('exchanges')).value as {
    maxBytes: number
    exchanges: ExchangeRecord[]
  }
  // Bodies of x's are as long in JSON as the journal keeps them.
  const held = JSON.stringify(journal.exchanges).length
  expect(journal.maxBytes).toBe(MAX_JOURNAL_BYTES)
  expect(held).toBeLessThanOrEqual(MAX_JOURNAL_BYTES * 1.1)
  expect(journal.exchanges.length).toBeGreaterThan(10)
  expect(journal.exchanges.length).toBeLessThan(80)
  expect(journal.exchanges[0]!.request.body).toMatchObject({ bytes: 120_000, truncated: true })

  let secrets = ((await plane('secrets')).value as unknown[]).length
  while (secrets < MAX_SECRETS) {
    expect((await plane('secrets', {})).status).toBe(200)
    secrets++
  }
  const refused = await plane('secrets', {})
  expect(refused.status).toBe(403)
  expect(JSON.stringify(refused.value)).toContain(`the most it may (${MAX_SECRETS})`)

  for (let i = 0; i < MAX_FAULT_RULES; i++) {
    expect((await plane('faults', { status: 503, endpoint: `lib.nothing${i}` })).status).toBe(200)
  }
  const past = await plane('faults', { status: 503 })
  expect(past.status).toBe(403)
  expect(JSON.stringify(past.value)).toContain(
    `${MAX_FAULT_RULES} fault rules set, the most it may`,
  )
  // The account still answers.
  expect((await post(`${account.baseUrl}/core/ping`, account.secret, '')).status).toBe(200)
}
