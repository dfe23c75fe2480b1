import { MAX_CHAOS_DELAY_MS, type ChaosFault } from './address'

/** The `status` a simplified fault becomes: the commonest answer of a busy service. */
const AS_STATUS = 503

/**
 * The simpler faults `fault` may become, simplest first: a hang a delay (then a status), a delay a
 * status, a throttle one of a second. Shortening a delay and moving a clock jump are searched
 * apart (`simplify`).
 */
function simpler(fault: ChaosFault): ChaosFault[] {
  const at = { endpoint: fault.endpoint, nth: fault.nth }
  const status: ChaosFault = { ...at, kind: 'status', status: AS_STATUS }
  if (fault.kind === 'hang') return [status, { ...at, kind: 'delay', delayMs: MAX_CHAOS_DELAY_MS }]
  if (fault.kind === 'delay') return [status]
  if (fault.kind === 'throttle' && (fault.retryAfter ?? 1) > 1) {
    return [{ ...at, kind: 'throttle', retryAfter: 1 }]
  }
  return []
}

/**
 * Each fault of a failing list made as simple as the failure allows, one at a time, rerunning
 * with `fails` (within `budget` reruns): a hang becomes a status or a delay if either still
 * fails (hang → delay → status), a delay the shortest that fails (halving), an `expire` (a clock
 * jump) the earliest call of its endpoint where it still fails. A fault no simpler one can
 * replace stays as it is; the list keeps its order and length.
 */
export async function simplify(
  faults: readonly ChaosFault[],
  fails: (faults: readonly ChaosFault[]) => Promise<boolean>,
  budget = Infinity,
): Promise<{ faults: ChaosFault[]; tries: number }> {
  let current = [...faults]
  let tries = 0
  const attempt = async (i: number, replacement: ChaosFault): Promise<boolean> => {
    if (tries >= budget) return false
    const taken = current.some(
      (other, j) =>
        j !== i && other.endpoint === replacement.endpoint && other.nth === replacement.nth,
    )
    if (taken) return false
    tries++
    const candidate = current.map((fault, j) => (j === i ? replacement : fault))
    if (!(await fails(candidate))) return false
    current = candidate
    return true
  }
  for (let i = 0; i < current.length; i++) {
    for (const replacement of simpler(current[i]!)) {
      if (await attempt(i, replacement)) break
    }
    const fault = current[i]!
    if (fault.kind === 'delay') {
      // The shortest delay that still fails, by halving.
      let low = 0
      let high = fault.delayMs ?? 1
      while (high - low > 1 && tries < budget) {
        const middle = Math.floor((low + high) / 2)
        if (await attempt(i, { ...fault, delayMs: middle })) high = middle
        else low = middle
      }
    }
    if (fault.kind === 'expire') {
      // The earliest call of its endpoint the clock may jump before and still fail.
      for (let nth = 1; nth < fault.nth; nth++) {
        if (await attempt(i, { ...fault, nth })) break
      }
    }
  }
  return { faults: current, tries }
}
