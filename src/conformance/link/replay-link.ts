import type { Case } from '../cases'
import { verifyContracts } from '../contract/verify'
import { formatDifference, type CaseResult, type Target } from '../run'
import type { StepLink } from './step-link'

/** A step that answers here otherwise than when its link was made. */
export interface StepDifference {
  /** From 1. */
  index: number
  label: string
  /** What differed, a line each. */
  differences: string[]
}

/** A link's case replayed: the runner's result, and what it found differing or skipped. */
export interface ReplayedLink {
  result: CaseResult
  /** The first step whose answer differs from the one recorded, if one does. */
  differs?: StepDifference
  /** Why the replay stopped before the step (a step that needs what the target cannot give). */
  skipped?: string
}

/**
 * Replays a link's case on `target`'s account (decision 093), as `verify` replays a contract:
 * every reset the runner asks for starts the account as the link's did (its seed, then its
 * faults). The target must be a throwaway account: the replay resets it.
 */
export async function replayStepLink(target: Target, link: StepLink): Promise<ReplayedLink> {
  const send = target.control
  if (!send) throw new Error('a link replays on an account whose control plane it can use')
  const seeded: Target = {
    ...target,
    control: async (path, body) => {
      if (path !== 'reset') return send(path, body)
      const answer = await send('reset', link.seed ? { seed: link.seed } : {})
      for (const fault of link.faults ?? []) {
        const rule = Object.fromEntries(Object.entries(fault).filter(([, v]) => v !== null))
        await send('faults', { ...rule, ...(fault.count === null ? { count: null } : {}) })
      }
      return answer
    },
  }
  const one: Case = {
    id: `link › ${link.case.name}`,
    file: 'link',
    format: link.case.formats?.[0] ?? 'tuples',
    fresh: link.case.fresh ?? false,
    steps: link.case.steps,
    ...(link.case.notes ? { notes: link.case.notes } : {}),
  }
  const [result] = await verifyContracts(seeded, [one])
  const failed = result!.stepResults.find((step) => step.status === 'failed')
  const skipped = result!.stepResults.find((step) => step.status === 'skipped')
  return {
    result: result!,
    ...(failed
      ? {
          differs: {
            index: failed.index,
            label: failed.label,
            differences: failed.differences.map(formatDifference),
          },
        }
      : {}),
    ...(skipped ? { skipped: `step ${skipped.index} (${skipped.label}): ${skipped.reason}` } : {}),
  }
}
