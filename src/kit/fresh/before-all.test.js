// A file's own beforeAll reads the service's base URL and secret: in process the service has
// started by then, and over `serve` the file's account is open.
import { beforeAll, expect, it } from 'vitest'
import { useService } from 'service-playground/vitest'
import { call, serviceOptions } from './setup/target.js'

const proc = useService(serviceOptions())
let baseUrl
let secret

beforeAll(() => {
  baseUrl = proc.baseUrl
  secret = proc.secret
})

it('finds the base URL and the secret in its beforeAll', async () => {
  const answer = await call(baseUrl, 'core.ping', secret)
  expect([answer.status, await answer.json()]).toEqual([200, [['<<', true]]])
})
