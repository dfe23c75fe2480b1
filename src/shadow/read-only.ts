/**
 * Which exchanges the shadow may ask the upstream again, to tell noise from a difference: only
 * those that write nothing. Every endpoint of the engine's catalogue is in one class (a test
 * holds the list to the catalogue, so a new endpoint must be placed before it ships):
 * - reads: they write nothing, whatever they are given;
 * - runners: they run what they are given (`core.exec`, `enum.map`, a stored procedure), so
 *   they write nothing only when every call they ran does not; what they ran is read from the
 *   mirror's decision trace of the same request;
 * - writers: everything else (keys, stored procedures, deploys, and `auth.create`, which makes an
 *   authorization the upstream may keep).
 */
import type { CallTrace } from '../engine'
import { LIB } from '../engine/settings'

/** Endpoints that write nothing, by name, or every endpoint below a package (`type`). */
const READS = [
  'core.ping',
  'core.echo',
  'core.sleep',
  'core.compile',
  'type',
  'keyv.get',
  'keyv.scan',
]

/** Endpoints that run what they are given. */
const RUNNERS = ['core.exec', 'enum.map']

const within = (name: string, list: readonly string[], serviceName: string) =>
  list.some((entry) => {
    const named = entry.replace('{service}', serviceName)
    return name === named || name.startsWith(`${named}.`)
  })

/** The class of one endpoint, by its name. */
export function classOf(endpoint: string, serviceName: string): 'read' | 'runner' | 'write' {
  if (within(endpoint, READS, serviceName)) return 'read'
  if (within(endpoint, RUNNERS, serviceName) || endpoint.startsWith(`${LIB}.`)) return 'runner'
  return 'write'
}

/**
 * Whether an exchange wrote nothing, so that asking the upstream again is safe: its endpoint
 * reads, or runs only calls that read (every call of the trace, none dropped from it).
 */
export function writesNothing(
  endpoint: string | null,
  calls: readonly CallTrace[],
  droppedCalls: number,
  serviceName: string,
): boolean {
  if (endpoint === null) return false
  const top = classOf(endpoint, serviceName)
  if (top === 'read') return true
  if (top === 'write' || droppedCalls > 0) return false
  // A runner the engine refused at its door ran nothing here: what it would run upstream is unknown.
  const inner = calls.filter((call) => call.depth > 0)
  if (inner.length === 0) return false
  return inner.every((call) => classOf(call.endpoint, serviceName) === 'read')
}
