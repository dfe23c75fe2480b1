import { NO_WINDOW, windowAt } from '../rate-window'
import { createJournal, type Journal } from './exchange-log'
import { createFaults, type Faults } from './faults'
import type { MarkControls, OperatorModes, OperatorState, RateWindow } from './state'
import { createStrictReport } from './strict'

/** The operator's controls kept in this process, readable at once by code beside the engine. */
export interface LocalOperator extends OperatorState {
  /** The same faults and journal, read and changed synchronously (the Node API's). */
  readonly here: { faults: Faults; journal: Journal }
}

/**
 * The operator's controls in this process's memory: what one engine needs when nothing else
 * answers for its account (the page, the Node API, `serve` over memory or SQLite). Every call
 * is answered at once.
 */
export function createLocalOperator(modes: OperatorModes): LocalOperator {
  const faults = createFaults()
  const report = createStrictReport()
  const journal = createJournal(modes.journal)
  let strict = modes.strict
  let rateLimit = { ...modes.rateLimit }
  let window: RateWindow = NO_WINDOW
  let steps = 0
  /** The controls the last mark shared, and the faults' version then. */
  let controls: MarkControls | undefined
  let controlsOf = -1

  return {
    here: { faults, journal },
    view: () => ({
      strict,
      journal: journal.capacity,
      rateLimit,
      window,
      faulted: faults.any(),
    }),
    faults: {
      add: async (rule) => faults.add(rule, await faults.nextId()),
      list: async () => faults.list(),
      remove: async (id) => faults.remove(id),
      clear: async () => faults.clear(),
      take: (endpoint, token, role, draw, signal) =>
        faults.take(endpoint, token, role, draw, signal),
    },
    step: () => ++steps,
    useRandom: (random) => faults.useRandom(random),
    timeline: {
      mark(withReport = false) {
        // The rate limit and the window are replaced, never changed in place: the same
        // objects mean the same controls.
        if (
          controls?.strict !== strict ||
          controls.journal !== journal.capacity ||
          controls.rateLimit !== rateLimit ||
          controls.window !== window ||
          controlsOf !== faults.version
        ) {
          controls = {
            strict,
            journal: journal.capacity,
            rateLimit,
            window,
            faults: faults.any() ? faults.list() : [],
            faultsAdded: faults.added,
          }
          controlsOf = faults.version
        }
        return {
          controls,
          steps,
          reportTotal: report.total,
          ...(withReport ? { report: report.list() } : {}),
        }
      },
      goTo(mark, entries) {
        const given = mark.controls
        strict = given.strict
        rateLimit = { ...given.rateLimit }
        window = { ...given.window }
        faults.replace(given.faults)
        faults.added = given.faultsAdded
        steps = mark.steps
        if (mark.report) report.replace(mark.report)
        else report.truncate(mark.reportTotal)
        journal.setCapacity(given.journal)
        if (entries) journal.replaceEntries(entries)
      },
      journalCapacity: () => journal.capacity,
      journalEntries: () => journal.entries(),
      lastJournalEntry: () => journal.last(),
      dropJournalAfter: (id) => journal.dropAfter(id),
      onJournalCut: (listener) => journal.onCut(listener),
    },
    strict: {
      async set(enabled) {
        strict = enabled
        report.clear()
      },
      record: async (entry) => report.record(entry),
      report: async () => report.list(),
    },
    journal: {
      setCapacity: async (capacity) => journal.setCapacity(capacity),
      add: (exchange) => void journal.add(exchange),
      list: async (after) => journal.list(after),
      clear: async () => journal.clear(),
    },
    rate: {
      async set(limit) {
        rateLimit = { ...limit }
      },
      async count(now, windowSeconds) {
        const current = windowAt(window, now, windowSeconds)
        window = { start: current.start, count: current.count + 1 }
        return window
      },
    },
    async capture() {
      return {
        strict,
        journal: journal.capacity,
        rateLimit: { ...rateLimit },
        window: { ...window },
        faults: faults.list(),
        report: report.list(),
        journalMark: journal.mark,
        steps,
        faultsAdded: faults.added,
      }
    },
    async restore(capture) {
      strict = capture.strict
      rateLimit = { ...capture.rateLimit }
      window = { ...capture.window }
      faults.replace(capture.faults)
      report.replace(capture.report)
      journal.setCapacity(capture.journal)
      journal.dropAfter(capture.journalMark)
      steps = capture.steps ?? steps
      faults.added = capture.faultsAdded ?? faults.added
    },
    async reset(configured) {
      steps = 0
      faults.added = 0
      faults.clear()
      report.clear()
      journal.clear()
      strict = configured.strict
      rateLimit = { ...configured.rateLimit }
      window = NO_WINDOW
    },
  }
}
