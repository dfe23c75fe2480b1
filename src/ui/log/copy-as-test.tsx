import { useState } from 'react'
import { useConfig } from '../shared/config'
import { messageOf } from '../shared/format'
import type { ExchangeRecord } from '../../engine'
import type { PageExchange } from '../shared/page-store'
import { testFromExchanges, type TestChoice } from './contracts'

/** What "Copy as test" gave: the test's text, or why there is none. */
type Copied =
  | { code: string; count: number; fixture: number; clipboard: boolean; choice: TestChoice }
  | { error: string; choice: TestChoice }

const RUNNERS = [
  ['vitest', 'Vitest', 'service-playground/vitest'],
  ['jest', 'Jest', 'service-playground/jest'],
  ['playwright', 'Playwright', 'service-playground/playwright'],
] as const
const TARGETS = [
  ['in-process', 'In process'],
  ['serve', 'Over serve'],
] as const

/**
 * "Copy as test": the chosen exchanges (or, with none chosen, every one shown) as a test file
 * that replays them with the kit and asserts their answers, for the runner chosen (Vitest, Jest
 * or Playwright), its service in process or on a running `serve`. With exchanges chosen, those
 * the log holds before the first of them are the account's starting state, made again before
 * the test. Put on the clipboard and shown, so that it can be copied by hand where the browser
 * keeps the clipboard to itself.
 */
export function CopyAsTest({
  chosen,
  shown,
  all,
}: {
  chosen: readonly PageExchange[]
  shown: readonly ExchangeRecord[]
  /** Every exchange the log holds, newest first: those before the chosen are the setup. */
  all: readonly ExchangeRecord[]
}) {
  const config = useConfig()
  const [copied, setCopied] = useState<Copied>()
  const [busy, setBusy] = useState(false)
  const exchanges = chosen.length > 0 ? chosen : shown

  async function copy(asked: Pick<TestChoice, 'runner' | 'target'>) {
    setBusy(true)
    const first = Math.min(...chosen.map((exchange) => exchange.id))
    const setup = chosen.length > 0 ? all.filter((record) => record.id < first) : []
    const choice: TestChoice = {
      ...asked,
      ...(setup.length ? { setupUntil: first - 1 } : {}),
    }
    const records = [...setup, ...exchanges].sort((a, b) => a.id - b.id)
    try {
      const code = await testFromExchanges(config, records, choice)
      const clipboard = await navigator.clipboard?.writeText(code).then(
        () => true,
        () => false,
      )
      setCopied({
        code,
        count: exchanges.length,
        fixture: setup.length,
        clipboard: clipboard === true,
        choice,
      })
    } catch (error) {
      setCopied({ error: messageOf(error), choice })
    } finally {
      setBusy(false)
    }
  }

  const choice = copied?.choice ?? { runner: 'vitest', target: 'in-process' }
  const runner = RUNNERS.find(([id]) => id === choice.runner)!
  return (
    <>
      <button
        type="button"
        disabled={busy || exchanges.length === 0}
        onClick={() => void copy(choice)}
      >
        Copy as test
      </button>
      {copied && (
        <section className="log-copied" aria-label="Test copied">
          <div className="log-copied-choice">
            <label>
              Runner{' '}
              <select
                value={choice.runner}
                disabled={busy}
                onChange={(event) =>
                  void copy({ ...choice, runner: event.target.value as TestChoice['runner'] })
                }
              >
                {RUNNERS.map(([id, label]) => (
                  <option key={id} value={id}>
                    {label}
                  </option>
                ))}
              </select>
            </label>{' '}
            <label>
              Service{' '}
              <select
                value={choice.target}
                disabled={busy}
                onChange={(event) =>
                  void copy({ ...choice, target: event.target.value as TestChoice['target'] })
                }
              >
                {TARGETS.map(([id, label]) => (
                  <option key={id} value={id}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {'error' in copied ? (
            <p role="alert">No test: {copied.error}</p>
          ) : (
            <>
              <p role="status">
                {copied.clipboard ? 'Copied to the clipboard' : 'Copy it from here'}: a {runner[1]}{' '}
                test replaying {copied.count} {copied.count === 1 ? 'exchange' : 'exchanges'} with{' '}
                <code>{runner[2]}</code>
                {copied.choice.target === 'serve'
                  ? ' on a running serve (SERVICE_PLAYGROUND_URL and SERVICE_PLAYGROUND_CONTROL_TOKEN)'
                  : ' in process'}
                {copied.fixture > 0 &&
                  `, the ${copied.fixture} before them made again as its starting state`}
                , tokens made in the test.
              </p>
              <pre data-testid="copied-test">{copied.code}</pre>
            </>
          )}
          <button type="button" onClick={() => setCopied(undefined)}>
            Close
          </button>
        </section>
      )}
    </>
  )
}
