// A call a test does not await is still being answered when the test ends: the test's frame
// waits for it, so what it writes is undone with that test (never seen by the next), and a
// warning names the test that sent it.
import { expect, it } from 'vitest'
import { useService } from 'service-playground/vitest'
import { call, serviceOptions } from './setup/target.js'

const proc = useService(serviceOptions())

/** Waits 0.3 s, then writes `late/<key>`. */
const slowWrite = (key) =>
  call(proc.baseUrl, 'core.exec', proc.secret, [
    [
      '$$',
      'proc',
      [
        '{}',
        ['>>', key],
        ['()', 'core.sleep', ['$$', 'seconds', 0.3]],
        ['()', 'keyv.set', ['$$', 'bucket', 'late'], ['$$', 'value', 1]],
      ],
    ],
  ])

it('sends a slow write and forgets to await it', () => {
  void slowWrite('forgotten')
})

it('finds nothing of it afterwards', async () => {
  await new Promise((resolve) => setTimeout(resolve, 600))
  const answer = await call(proc.baseUrl, 'keyv.scan', proc.secret, [['$$', 'bucket', 'late']])
  expect(await answer.json()).toEqual([['<<', []]])
})
