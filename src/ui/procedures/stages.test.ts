import { describe, expect, it } from 'vitest'
import { procedureNames } from '../shared/queries'
import { groupStages } from './stages'

const record = (name: string) => ({ name, proc: ['{}'], createdAt: 1, updatedAt: 2 })

describe('groupStages', () => {
  it('puts each dev stage beside its release, one entry per procedure, by name', () => {
    expect(groupStages([record('b:dev'), record('a'), record('b'), record('c:dev')])).toEqual([
      { name: 'a', release: record('a') },
      { name: 'b', release: record('b'), dev: record('b:dev') },
      { name: 'c', dev: record('c:dev') },
    ])
  })
})

describe('procedureNames', () => {
  it('names each procedure once, without its stage: an ability or a call names it so', () => {
    expect(procedureNames([record('b:dev'), record('a'), record('b')])).toEqual(['a', 'b'])
  })
})
