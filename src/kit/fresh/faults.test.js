// A fault may name the role of the tokens it meets, as the journal names them, and every faulted
// or refused-early request is journaled with the role its token really had.
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { useService } from 'service-playground/vitest'
import { call, serviceOptions } from './setup/target.js'

const proc = useService(serviceOptions())
const mode = process.env.KIT_SERVE ? 'serve' : 'in-process'

it('meets a fault by the role of the token, and journals the role', async () => {
  const token = await proc.authorize(['core'])
  await proc.fault({ status: 503, endpoint: 'core.ping', token: 'authorization', count: null })
  expect((await call(proc.baseUrl, 'core.ping', proc.secret)).status).toBe(200)
  expect((await call(proc.baseUrl, 'core.ping', token)).status).toBe(503)
  await expect(proc).toHaveReceived('core.ping', { status: 503, token: 'authorization', times: 1 })

  await proc.fault({ kind: 'network', endpoint: 'core.echo', token: 'secret' })
  await expect(call(proc.baseUrl, 'core.echo', token, [['>>', 1]])).resolves.toHaveProperty(
    'status',
    200,
  )
  await expect(call(proc.baseUrl, 'core.echo', proc.secret, [['>>', 1]])).rejects.toThrow()
  await expect(proc).toHaveReceived('core.echo', { fault: 'network', token: 'secret', times: 1 })

  await proc.fault({ kind: 'hang', delayMs: 100, endpoint: 'core.ping', token: 'none' })
  await expect(fetch(`${proc.baseUrl}/core/ping`, { method: 'POST' })).rejects.toThrow()
  await expect(proc).toHaveReceived('core.ping', { fault: 'hang', token: 'none', times: 1 })
})

it('records a body refused before its token was read with the token that was sent', async () => {
  const big = 'x'.repeat(140_000)
  const answer = await fetch(`${proc.baseUrl}/core/echo`, {
    method: 'POST',
    headers: { authorization: `Bearer ${proc.secret}`, 'content-type': 'text/plain' },
    body: big,
  })
  expect(answer.status).toBe(413)
  await expect(proc).toHaveReceived('core.echo', { status: 413, token: 'secret', times: 1 })
  const file = await proc.contract.save(`contracts/too-large.${mode}.json`)
  const [recorded] = JSON.parse(readFileSync(file, 'utf8')).cases
  expect(recorded.steps).toHaveLength(1)
  expect(JSON.stringify(recorded.steps[0])).not.toContain('forged')
  expect(recorded.steps[0].expect.status).toBe(413)
})
