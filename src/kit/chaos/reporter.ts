// A test file's chaos report (decision 103): each test's chaos run recorded as it ends, its
// failure replayed once more with exactly its shrunk faults to read the exchange it turned on,
// and at the file's end the report printed, written as JUnit (`chaos.junit`) and appended to
// the job's summary. No secret or token reaches any of them.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { junit, redact } from '../../conformance/report'
import type { ExchangeRecord } from '../../engine'
import type { ContractSource } from '../contract'
import { summarizeChaos } from '../test-summary'
import type { ChaosSettings } from './options'
import {
  bearersOf,
  chaosCases,
  chaosReportText,
  exchangeThatMatters,
  type ChaosOutcome,
} from './report'
import { ChaosFailure, replayChaos, runChaos, type ChaosFrame } from './run'

/** Records a file's chaos runs and reports them at its end. */
export interface ChaosReporter {
  /** Runs one test's function under chaos (`runChaos`), its outcome recorded; throws as it does. */
  run(frame: ChaosFrame, test: string, body: () => Promise<unknown>): Promise<void>
  /** Prints the report, writes its JUnit file and its summary section; once the file is done. */
  flush(): Promise<void>
}

const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''

/** The JUnit file of a test file's chaos run: `chaos-<file>.xml`, its path made one name. */
export const junitFileName = (file: string) =>
  `chaos-${file.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'tests'}.xml`

export function chaosReporter(
  source: () => Promise<ContractSource>,
  settings: ChaosSettings,
  print: (text: string) => void = (text) => console.log(text),
): ChaosReporter {
  const outcomes: ChaosOutcome[] = []
  /** Every bearer token and secret key a replay met: written by name, never by value. */
  const held = new Set<string>()
  const keep = async (exchanges: readonly ExchangeRecord[]) => {
    for (const token of bearersOf(exchanges)) held.add(token)
    // At the file's end the service may be stopped already: what the replays kept stands.
    const secrets = await source()
      .then((read) => read.secrets())
      .catch(() => [])
    for (const secret of secrets) held.add(secret.key)
  }

  /** One more run with exactly the shrunk faults, from the test's frame: its exchanges. */
  async function replayed(
    frame: ChaosFrame,
    start: string,
    finding: ChaosFailure['finding'],
    body: () => Promise<unknown>,
  ): Promise<ExchangeRecord[]> {
    await frame.restore(start)
    const again = (await frame.checkpoint()) as { id: string; journal?: number }
    await replayChaos(frame, finding.faults, body).catch(() => undefined)
    const { exchanges } = await (await source()).journal(again.journal || undefined)
    await keep(exchanges)
    return exchanges
  }

  return {
    async run(frame, test, body) {
      const start = await frame.checkpoint()
      try {
        await runChaos(frame, test, settings, body)
        outcomes.push({ test, runs: settings.runs })
        await frame.restore(start.id)
      } catch (error) {
        if (!(error instanceof ChaosFailure)) {
          outcomes.push({ test, runs: 1, ownFailure: firstLine(error) })
          throw error
        }
        const { finding } = error
        const exchanges = await replayed(frame, start.id, finding, body).catch(() => [])
        const exchange = exchangeThatMatters(exchanges)
        outcomes.push({ test, runs: finding.run + 1, finding, ...(exchange ? { exchange } : {}) })
        throw error
      }
    },
    async flush() {
      if (outcomes.length === 0) return
      await keep([])
      const credentials = [...held].map(
        (value) => [value, value.includes('.') ? '$token' : '$secret'] as [string, string],
      )
      print(redact(chaosReportText(settings.seed, settings.runs, outcomes), credentials))
      const file = outcomes[0]!.test.split(' › ')[0]!
      if (settings.junit) {
        mkdirSync(settings.junit, { recursive: true })
        const xml = junit(file, chaosCases(outcomes, credentials), 'chaos')
        writeFileSync(join(settings.junit, junitFileName(file)), xml)
      }
      summarizeChaos(file, settings, outcomes, held)
    },
  }
}
