import { useState } from 'react'
import { useConfig } from '../shared/config'
import { messageOf } from '../shared/format'
import type { ExchangeRecord } from '../../engine'
import type { PageExchange } from '../shared/page-store'
import { testFromExchanges } from './contracts'

/** What "Copy as test" gave: the test's text, or why there is none. */
type Copied = { code: string; count: number; clipboard: boolean } | { error: string }

/**
 * "Copy as test": the chosen exchanges (or, with none chosen, every one shown) as a Vitest file
 * that replays them with the kit and asserts their answers, put on the clipboard and shown, so
 * that it can be copied by hand where the browser keeps the clipboard to itself.
 */
export function CopyAsTest({
  chosen,
  shown,
}: {
  chosen: readonly PageExchange[]
  shown: readonly ExchangeRecord[]
}) {
  const config = useConfig()
  const [copied, setCopied] = useState<Copied>()
  const [busy, setBusy] = useState(false)
  const exchanges = chosen.length > 0 ? chosen : shown

  async function copy() {
    setBusy(true)
    try {
      const code = await testFromExchanges(config, exchanges)
      const clipboard = await navigator.clipboard?.writeText(code).then(
        () => true,
        () => false,
      )
      setCopied({ code, count: exchanges.length, clipboard: clipboard === true })
    } catch (error) {
      setCopied({ error: messageOf(error) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <button type="button" disabled={busy || exchanges.length === 0} onClick={() => void copy()}>
        Copy as test
      </button>
      {copied && (
        <section className="log-copied" aria-label="Test copied">
          {'error' in copied ? (
            <p role="alert">No test: {copied.error}</p>
          ) : (
            <>
              <p role="status">
                {copied.clipboard ? 'Copied to the clipboard' : 'Copy it from here'}: a Vitest test
                replaying {copied.count} {copied.count === 1 ? 'exchange' : 'exchanges'} with{' '}
                <code>service-playground/vitest</code>, tokens made in the test.
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
