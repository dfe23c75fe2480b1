import { describe, expect, it } from 'vitest'
import type { CallTrace } from '../engine'
import { createRegistry } from '../engine/packages'
import { classOf, writesNothing } from './read-only'

const trace = (endpoint: string, depth: number): CallTrace => ({
  endpoint,
  depth,
  decision: 'allowed',
  grant: 'secret',
  ability: null,
  code: null,
  status: null,
  explanation: '',
})

describe('which calls the shadow may ask the upstream again', () => {
  it('places every endpoint of the catalogue', () => {
    const classes = Object.fromEntries(
      createRegistry('proc')
        .list()
        .map((endpoint) => [endpoint.name, classOf(endpoint.name, 'proc')]),
    )
    // Writes: keys, stored procedures, deploys, and an authorization the upstream may keep.
    expect(
      Object.keys(classes)
        .filter((name) => classes[name] === 'write')
        .sort(),
    ).toEqual([
      'auth.create',
      'core.deploy',
      'keyv.delete',
      'keyv.set',
      'proc.create',
      'proc.delete',
      'proc.deploy',
      'proc.update',
    ])
    expect(
      Object.keys(classes)
        .filter((name) => classes[name] === 'runner')
        .sort(),
    ).toEqual(['core.exec', 'enum.map'])
    expect(classOf('lib.greet', 'proc')).toBe('runner')
    expect(classOf('keyv.get', 'proc')).toBe('read')
  })

  it('takes a runner as what it ran, by the decision trace', () => {
    const reads = [trace('core.exec', 0), trace('keyv.get', 1), trace('type.string.upcase', 1)]
    expect(writesNothing('core.exec', reads, 0, 'proc')).toBe(true)
    expect(writesNothing('core.exec', [...reads, trace('keyv.set', 1)], 0, 'proc')).toBe(false)
    // Calls dropped from the trace, or none run (refused at the door): not known to write nothing.
    expect(writesNothing('core.exec', reads, 3, 'proc')).toBe(false)
    expect(writesNothing('lib.greet', [trace('lib.greet', 0)], 0, 'proc')).toBe(false)
    expect(writesNothing('keyv.scan', [], 0, 'proc')).toBe(true)
    expect(writesNothing(null, [], 0, 'proc')).toBe(false)
  })
})
