/**
 * A failing test's last call as a link (decision 093): recorded from the service's journal as
 * a contract records it, no secret or token in it, and added under the test's errors.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { readStepLink } from '../conformance/link/step-link'
import { startService, type Service } from '../node'
import { contractSource } from './in-process-handle'
import { linkFailure, testLink } from './test-link'

let service: Service
beforeAll(async () => {
  service = await startService({ baseUrl: 'https://test-link.test' })
})
afterAll(() => service.stop())

/** The link's fragment value in a line of `testLink`. */
const valueOf = (line: string) => /#r=(v1\.[A-Za-z0-9_-]+)/.exec(line)?.[1]

it('links the last call with the calls before it, tokens and secrets as roles', async () => {
  await service.reset()
  expect(await testLink(contractSource(service, 100), 'nothing yet')).toBeUndefined()
  const token = await service.authorize(['type.string'])
  const answer = await fetch('https://test-link.test/type/string/reverse', {
    method: 'POST',
    headers: { authorization: `bearer ${token}`, 'content-type': 'text/plain' },
    body: token,
  })
  expect(await answer.text()).toBe([...token].reverse().join(''))
  const made = await testLink(contractSource(service, 100), 'reverses', 'http://x.test/')
  const line = made?.text
  expect(made?.url).toMatch(/^http:\/\/x\.test\/#r=v1\./)
  expect(line).toMatch(/^the test's last call \(step 2\) as a link \(\d+ characters\)/)
  const value = valueOf(line!)!
  const link = await readStepLink(value)
  expect(link.case.name).toBe('reverses')
  expect(link.case.steps.at(-1)).toMatchObject({
    call: 'type.string.reverse',
    token: '$auth1',
  })
  const secrets = (await service.listSecrets()).map((secret) => secret.key)
  for (const text of [token, ...secrets]) {
    expect(line!.includes(text)).toBe(false)
    expect(JSON.stringify(link).includes(text)).toBe(false)
  }
})

it('says why there is no link when the journal lost the first calls', async () => {
  await service.reset()
  await service.authorize(['core'])
  await service.authorize(['core'])
  expect((await testLink(contractSource(service, 2), 'cut'))?.text).toMatch(
    /^no link to the failing step: the journal keeps the last 2 requests/,
  )
})

it("adds the link under a failed test's errors, and nothing to a passed one", async () => {
  await service.reset()
  await service.authorize(['core'])
  const source = async () => contractSource(service, 100)
  const failed = { state: 'fail', errors: [{ message: 'expected 1 to be 2' }] }
  await linkFailure(failed, source, 'fails')
  expect(failed.errors[0]!.message).toMatch(
    /^expected 1 to be 2\n\nthe test's last call \(step 1\)/,
  )
  expect(valueOf(failed.errors[0]!.message)).toBeDefined()
  const passed = { state: 'pass', errors: [{ message: 'kept' }] }
  await linkFailure(passed, source, 'passes')
  expect(passed.errors[0]!.message).toBe('kept')
})
