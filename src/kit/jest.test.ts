/**
 * The Jest helper's refusals, where no Jest runs it (the pack test runs it under Jest itself,
 * from the packed tarball): each says what to do, none starts a service half-framed.
 */
import { afterEach, expect, it, vi } from 'vitest'
import { useService } from './jest'

afterEach(() => {
  vi.unstubAllGlobals()
})

it('refuses an option it does not take, naming those it does', () => {
  expect(() => useService({ baseUrll: 'https://x.test' } as never)).toThrow(
    "useService: unknown option `baseUrll'; it takes baseUrl, serviceName, secrets,",
  )
  expect(() => useService({ coverag: 'c.json' } as never)).toThrow(
    /unknown option `coverag'; it takes .*contract, coverage, serve, chaos$/,
  )
})

it('refuses a secret read from an unset environment variable', () => {
  expect(() => useService({ secrets: [undefined as never] })).toThrow(
    /secrets must be non-empty strings.*environment variable/,
  )
})

it("says where to call it when Jest's globals are not there", () => {
  expect(() => useService()).toThrow(/Jest's globals are not here; call it from a Jest test file/)
})

it("says what it needs when Jest's runner is not jest-circus", () => {
  const hooks: string[] = []
  vi.stubGlobal('beforeAll', () => hooks.push('beforeAll'))
  vi.stubGlobal('afterAll', () => hooks.push('afterAll'))
  expect(() => useService()).toThrow(/jest-circus\) is not running this file.*jest-jasmine2/)
  // Refused before any hook was added: nothing would start a service without its frames.
  expect(hooks).toEqual([])
})

it('refuses bad chaos options by name, before it needs Jest or adds a hook', () => {
  expect(() => useService({ chaos: { seed: 1, rate: 2 } })).toThrow(
    /useService: chaos\.rate must be a number more than 0 and at most 1; got 2/,
  )
  expect(() => useService({ chaos: { seed: 1, kinds: ['gremlins' as never] } })).toThrow(
    /chaos\.kinds: "gremlins" is not a kind; the kinds are status, throttle/,
  )
  expect(() => useService({ chaos: { seed: true as never } })).toThrow(/chaos\.`seed'/)
  expect(() => useService({ chaos: { seed: 1, runs: 0 } })).toThrow(/chaos\.runs .*got 0/)
})
