import { describe, expect, expectTypeOf, it } from 'vitest'
import { createEngine, type SecretView } from '../engine'
import { createMemoryStore } from '../storage/memory-store'
import { ControlError, controlClient } from './control'

async function client() {
  const engine = createEngine({ store: createMemoryStore(), baseUrl: 'https://control.test/v1' })
  await engine.start()
  return {
    engine,
    control: controlClient({ baseUrl: engine.settings.baseUrl, send: engine.handle }),
  }
}

describe('the control-plane client', () => {
  it('is typed from the control plane’s routes, and reaches each', async () => {
    const { control } = await client()
    const secrets = await control.get('secrets')
    expectTypeOf(secrets).toEqualTypeOf<SecretView[]>()
    const [first] = secrets
    const rolled = await control.post(`secrets/${first!.id}/roll`, { at: undefined })
    expectTypeOf(rolled).toEqualTypeOf<SecretView>()
    expect(rolled.id).not.toBe(first!.id)
    expect(await control.post('clock', { advance: 60 })).toEqual({ now: expect.any(Number) })
    expect(await control.post('exchanges', { capacity: 5 })).toEqual({ capacity: 5 })
    expect(await control.get('exchanges', { after: 0 })).toEqual({
      capacity: 5,
      maxBytes: expect.any(Number),
      exchanges: [],
    })
    const rules = await control.post('faults', { status: 503, endpoint: 'core' })
    expect(rules).toMatchObject([{ kind: 'status', status: 503, endpoint: 'core' }])
    expect(await control.post(`faults/${rules[0]!.id}/clear`, {})).toEqual([])
    // @ts-expect-error: the control plane has no such route
    await expect(control.get('nothing')).rejects.toThrow(ControlError)
    // @ts-expect-error: `advance' is a number
    await expect(control.post('clock', { advance: 'soon' })).rejects.toThrow(/advance/)
  })

  it('says what the control plane refused: the status, the body and its message', async () => {
    const { control } = await client()
    const refused = await control.post('faults', { kind: 'hang', delayMs: -1 }).catch((e) => e)
    expect(refused).toBeInstanceOf(ControlError)
    expect(refused).toMatchObject({
      path: 'faults',
      status: 400,
      reason: "`delayMs' must be milliseconds from 0 to 600000",
    })
    expect(JSON.parse((refused as ControlError).text)).toEqual({
      error: { message: "`delayMs' must be milliseconds from 0 to 600000" },
    })
  })

  it('sends the control token where one is asked for', async () => {
    const seen: Array<string | null> = []
    const control = controlClient({
      baseUrl: 'https://control.test',
      token: 'the-token',
      send: async (request) => {
        seen.push(request.headers.get('authorization'))
        return new Response('{"now": 1}', { headers: { 'content-type': 'application/json' } })
      },
    })
    expect(await control.get('clock')).toEqual({ now: 1 })
    expect(seen).toEqual(['Bearer the-token'])
  })
})
