import { describe, expect, it } from 'vitest'
import { formatIds, parseIds } from './log-route'

describe('chosen exchanges in the URL', () => {
  it('writes ids ascending, runs of consecutive ids as ranges', () => {
    expect(formatIds([9, 3, 4, 5, 7, 4, 12, 11])).toBe('3-5,7,9,11-12')
    expect(formatIds([])).toBe('')
    expect(formatIds([0, -1, 1.5, 2])).toBe('2')
  })

  it('reads them back, ignoring what is not ids, without expanding a range', () => {
    const chosen = parseIds(formatIds([3, 4, 5, 7]))
    expect([2, 3, 4, 5, 6, 7, 8].filter(chosen)).toEqual([3, 4, 5, 7])
    const odd = parseIds('x,5-3, 10 - 12 ,1000-999999999999,abc-1')
    const ids = [4, 10, 12, 13, 1000, 999999999999, 10 ** 12]
    expect(ids.filter(odd)).toEqual([10, 12, 1000, 999999999999])
    expect(parseIds('')(1)).toBe(false)
  })
})
