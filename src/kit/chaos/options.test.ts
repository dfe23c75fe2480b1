/** Bad chaos options are refused by name when `useService` is called, before any test runs. */
import { describe, expect, it } from 'vitest'
import { useService } from '../vitest'

describe('bad chaos options, refused by name before any test runs', () => {
  const refused: Array<[unknown, RegExp]> = [
    [{ seed: 1.5 }, /chaos\.`seed' must be a text .* or a whole number/],
    [{ seed: { a: 1 } }, /chaos\.`seed'.*got an object/],
    [{ seed: 1, kinds: ['status', 'gremlins'] }, /chaos\.kinds: "gremlins" is not a kind/],
    [{ seed: 1, kinds: [] }, /chaos\.kinds must be a list of one or more/],
    [{ seed: 1, rate: 0 }, /chaos\.rate must be a number more than 0 and at most 1; got 0/],
    [{ seed: 1, rate: 1.5 }, /chaos\.rate .*got 1\.5/],
    [{ seed: 1, runs: 0 }, /chaos\.runs must be a whole number .*got 0/],
    [{ seed: 1, runs: -3 }, /chaos\.runs .*got -3/],
    [{ seed: 1, ruhs: 3 }, /`chaos' takes seed, runs, kinds, rate, maxReruns, junit; not `ruhs'/],
    [
      { seed: 1, junit: '' },
      /chaos\.junit must be the folder to write the report's JUnit files in; got ""/,
    ],
    [{ seed: 1, junit: 7 }, /chaos\.junit must be the folder .*got 7/],
    ['42', /`chaos' must be an object/],
  ]
  for (const [chaos, message] of refused) {
    it(`refuses ${JSON.stringify(chaos)}`, () => {
      expect(() => useService({ chaos } as never)).toThrow(message)
    })
  }
})
