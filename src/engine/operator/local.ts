import { NO_WINDOW, windowAt } from '../rate-window'
import { createJournal, type Journal } from './exchange-log'
import { createFaults, type Faults } from './faults'
import type { OperatorModes, OperatorState, RateWindow } from './state'
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
      add: async (rule) => faults.add(rule),
      list: async () => faults.list(),
      remove: async (id) => faults.remove(id),
      clear: async () => faults.clear(),
      take: async (endpoint, token, role) => faults.take(endpoint, token, role),
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
      add: (exchange) => journal.add(exchange),
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
    },
    async reset(configured) {
      faults.clear()
      report.clear()
      journal.clear()
      strict = configured.strict
      rateLimit = { ...configured.rateLimit }
      window = NO_WINDOW
    },
  }
}
