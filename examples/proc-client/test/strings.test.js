import { expect, it } from 'vitest'
import { connect } from '../client.js'

const proc = connect(process.env.SECRET)

it('reverses and upcases strings', async () => {
  expect(await proc.call('type.string.reverse', 'hello')).toBe('olleh')
  expect(await proc.call('type.string.upcase', 'hello')).toBe('HELLO')
})

it('mints an authorization that reaches only its abilities', async () => {
  const token = await proc.call('auth.create', undefined, { abilities: ['type.string'] })
  const limited = connect(token)
  expect(await limited.call('type.string.truncate', 'hello', { length: 2 })).toBe('he')
  await expect(limited.call('keyv.get', 'k')).rejects.toThrow(
    "authorization does not have the ability to access proc `keyv.get'",
  )
})
