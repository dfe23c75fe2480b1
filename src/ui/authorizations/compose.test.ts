import { describe, expect, it } from 'vitest'
import {
  compositionFromParams,
  compositionToParams,
  emptyComposition,
  planComposition,
  toDateTimeLocal,
  toUnixSeconds,
} from './compose'

describe('compose', () => {
  it('reads a datetime-local value as Unix seconds, never milliseconds', () => {
    expect(toUnixSeconds('2030-01-01T00:00', 'utc')).toBe(1893456000)
    expect(toUnixSeconds('2030-01-01T00:00:30', 'utc')).toBe(1893456030)
    expect(toUnixSeconds('nonsense', 'utc')).toBeUndefined()
    expect(toDateTimeLocal(1893456030, 'utc')).toBe('2030-01-01T00:00:30')
    const local = toDateTimeLocal(1893456030, 'local')
    expect(toUnixSeconds(local, 'local')).toBe(1893456030)
  })

  it('sends expiry in seconds and ttl as given; the earlier wins', () => {
    const now = 1893456000 - 3600
    const planned = planComposition(
      { ...emptyComposition, abilities: ['type'], expiry: '2030-01-01T00:00', ttl: '60' },
      now,
      undefined,
    )
    expect(planned.args).toEqual([
      ['abilities', ['type']],
      ['expiry', 1893456000],
      ['ttl', 60],
    ])
    expect(planned.endsAt).toBe(now + 60)
    expect(planned.findings).toEqual([])
  })

  it('refuses a past expiry and a ttl that is not above 0 in its own words', () => {
    const planned = planComposition(
      { ...emptyComposition, abilities: ['type'], expiry: '2030-01-01T00:00', ttl: '0' },
      1893456000,
      undefined,
    )
    expect(planned.findings.map((f) => f.level)).toEqual(['form', 'form'])
    expect(planned.findings[0]!.message).toMatch(/has already passed on the virtual clock/)
    expect(planned.args).toEqual([['abilities', ['type']]])
  })

  it('refuses a ttl under a second before sending: the engine would answer 400', () => {
    const planned = planComposition(
      { ...emptyComposition, abilities: ['type'], ttl: '0.5' },
      1893456000,
      undefined,
    )
    expect(planned.findings).toEqual([
      { level: 'form', message: expect.stringMatching(/^The time to live must be .* at least 1/) },
    ])
    expect(planned.args).toEqual([['abilities', ['type']]])
  })

  it('says the engine will refuse no abilities and malformed ones', () => {
    expect(planComposition(emptyComposition, 0, undefined).findings[0]).toMatchObject({
      level: 'engine',
    })
    const planned = planComposition(
      { ...emptyComposition, abilities: ['type string'], insecure: true },
      0,
      undefined,
    )
    expect(planned.findings).toEqual([
      { level: 'engine', message: expect.stringMatching(/^`type string' is not a name/) },
    ])
    expect(planned.args).toEqual([
      ['abilities', ['type string']],
      ['insecure', true],
    ])
  })
})

describe('the composition in the URL', () => {
  it('survives a round trip, and ignores what it does not know', () => {
    const composition = {
      abilities: ['type', 'keyv.get?bucket=users&prefix=alice%2F'],
      insecure: true,
      expiry: '2030-01-01T00:00:30',
      zone: 'local' as const,
      ttl: '60',
      format: 'msgpack' as const,
    }
    const params = compositionToParams(composition)
    expect(compositionFromParams(new URLSearchParams(params.toString()))).toEqual(composition)
    expect(compositionToParams(emptyComposition).toString()).toBe('')
    expect(compositionFromParams(new URLSearchParams('format=xml&zone=mars'))).toEqual(
      emptyComposition,
    )
  })
})

describe('the insecure switch', () => {
  const world = {
    endpoints: [
      { name: 'type.string.reverse', summary: '', insecure: false, input: null, args: {} },
      { name: 'auth.create', summary: '', insecure: true, input: null, args: {} },
    ],
    packages: ['auth', 'type', 'type.string'],
    procedures: [],
    serviceName: 'service',
  }

  it('is needed by an insecure ability, and noted when nothing needs it', () => {
    const refused = planComposition({ ...emptyComposition, abilities: ['auth'] }, 0, world)
    expect(refused.findings).toEqual([
      {
        level: 'engine',
        message: expect.stringMatching(/^`auth' is insecure \(it covers `auth.create'\): it lets/),
      },
    ])
    const granted = planComposition(
      { ...emptyComposition, abilities: ['auth'], insecure: true },
      0,
      world,
    )
    expect(granted.findings.map((f) => f.level)).toEqual(['warning'])
    const needless = planComposition(
      { ...emptyComposition, abilities: ['type'], insecure: true },
      0,
      world,
    )
    expect(needless.findings).toEqual([
      { level: 'warning', message: expect.stringMatching(/^No chosen ability needs/) },
    ])
  })
})
