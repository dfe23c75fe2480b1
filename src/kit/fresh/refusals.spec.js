// The policy matchers under Playwright refuse what they cannot judge, as under Vitest and Jest.
import { expect, test } from 'service-playground/playwright'

test('the policy matchers refuse an unknown endpoint, a place key and a value not a token', async ({
  service,
}) => {
  const token = await service.authorize(['keyv.get?bucket=users'])
  await expect(expect(token).not.toReach('keyv.gte')).rejects.toThrow(
    "toReach: the service has no endpoint `keyv.gte'",
  )
  await expect(expect(token).toReach('keyv.get', { bukcet: 'users' })).rejects.toThrow(
    "toReach: unknown key `bukcet'",
  )
  await expect(expect('not-a-token').not.toReach('core.ping')).rejects.toThrow(
    'is not a token of the running service: received a string of 11 characters',
  )
  await expect(token).toReach('keyv.get', { bucket: 'users' })
})
