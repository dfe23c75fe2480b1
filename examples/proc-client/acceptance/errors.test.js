// The real JS client's error cases, restated: each refusal or failure as the client meets it.
import { expect, it } from 'vitest'
import { connect } from '../client.js'

const proc = connect(process.env.SECRET)

it('throws when the authorization is invalid', async () => {
  await expect(connect('12321').call('core.ping')).rejects.toThrow('authorization is invalid')
})

it('throws when the proc does not exist', async () => {
  await expect(proc.call('foo.bar.baz')).rejects.toThrow("undefined proc `foo.bar.baz'")
})

it('throws when the input is of the wrong type', async () => {
  await expect(proc.call('type.string.truncate', ['foo'], { length: 1 })).rejects.toThrow(
    "proc `type.string.truncate' does not accept the given input",
  )
})

it('throws when a token does not have a necessary ability', async () => {
  const authorization = await proc.call('auth.create', undefined, { abilities: ['string'] })
  await expect(connect(authorization).call('core.ping')).rejects.toThrow(
    "authorization does not have the ability to access proc `core.ping'",
  )
})

it('throws when the request is too large', async () => {
  await expect(proc.call('core.echo', new Array(1024 * 128).join('foo'))).rejects.toThrow(
    'request size exceeded the allowed 131072 bytes',
  )
})
