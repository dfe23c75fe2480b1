/**
 * `useService({ serve })` behind a front (decision 095): the file's account is opened and used
 * through the URL it was given, a proxy that sets `Host` to serve's own address, so every call,
 * control-plane request and journal read goes through the front.
 */
import { afterAll, expect, it } from 'vitest'
import { configure, start } from '../cli/serve/serve-cli'
import { startFront } from '../testing/front-proxy'
import { tuplesRequest } from '../testing/tuples'
import { useService } from './vitest'

const CONTROL = 'vitest-front-control-token-0001'
const serve = await start(configure(['--port', '0', '--control-token', CONTROL]))
const front = await startFront({ upstream: serve.url })
// Registered first, so that it runs after the helper has removed the account.
afterAll(async () => {
  await front.close()
  await serve.stop()
})
const service = useService({ serve: { url: front.url, controlToken: CONTROL } })

it('gives the account at the front, and each call reaches it there', async () => {
  expect(service.baseUrl).toMatch(new RegExp(`^${front.url}/a/[A-Za-z0-9_-]+$`))
  const token = await service.authorize(['type.string'])
  const answer = await fetch(
    tuplesRequest(service.baseUrl, 'type.string.reverse', token, [['>>', 'olleh']]),
  )
  expect(await answer.json()).toEqual([['<<', 'hello']])
  await expect(service).toHaveReceived('type.string.reverse', { times: 1 })
  const below = new URL(service.baseUrl).pathname
  expect(front.seen).toEqual(
    expect.arrayContaining([`${below}/auth/create`, `${below}/type/string/reverse`]),
  )
  expect(front.seen.some((path) => path.startsWith(`${below}/_account/exchanges`))).toBe(true)
})
