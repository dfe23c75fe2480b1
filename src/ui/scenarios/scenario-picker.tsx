import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState } from 'react'
import { listBuckets, listProcedures, listSecrets } from '../shared/api'
import { useConfig, type PlaygroundConfig } from '../shared/config'
import { messageOf } from '../shared/format'
import { listRemembered } from '../shared/page-store'
import { resetPlayground } from '../shared/reset-account'
import { forgetViewParams, navigate, presetViewParams, type ViewId } from '../shared/router'
import { SCENARIOS, type ScenarioInfo as Scenario } from './scenario-list'
import { setActiveScenario } from './scenario-store'
import './scenarios.css'

/** Whether the account holds anything a scenario's reset would lose. */
async function holdsWork(config: PlaygroundConfig): Promise<boolean> {
  const [secrets, buckets, procedures, remembered] = await Promise.all([
    listSecrets(config.baseUrl),
    listBuckets(config.baseUrl),
    listProcedures(config.baseUrl),
    listRemembered(config),
  ])
  return secrets.length > 1 || buckets.length > 0 || procedures.length > 0 || remembered.length > 0
}

type Step =
  | { kind: 'idle' }
  | { kind: 'asking'; scenario: Scenario }
  | { kind: 'loading'; scenario: Scenario }
  | { kind: 'failed'; scenario: Scenario; message: string }

/**
 * The starter scenarios, each loadable in one click: the account is reset to its starting
 * secret first (asked, unless it holds nothing to lose), the scenario's state is made through
 * the wire, and its view opens with what to try. `compact` on the first screen: a list of
 * titles; in Settings, each with its summary.
 */
export function ScenarioPicker({ compact = false }: { compact?: boolean }) {
  const config = useConfig()
  const queryClient = useQueryClient()
  const headingId = useId()
  const [step, setStep] = useState<Step>({ kind: 'idle' })

  async function load(scenario: Scenario, reset: boolean) {
    setStep({ kind: 'loading', scenario })
    try {
      if (reset) await resetPlayground(config, queryClient)
      // What a scenario does is loaded only when one is chosen: the first screen lists them.
      const { LOADERS } = await import('./loaders')
      const loaded = await LOADERS[scenario.id](config)
      await queryClient.invalidateQueries()
      setActiveScenario(
        { id: scenario.id, title: scenario.title, note: loaded.note },
        { focus: true },
      )
      setStep({ kind: 'idle' })
      forgetViewParams()
      for (const [view, params] of Object.entries(loaded.next ?? {})) {
        presetViewParams(view as ViewId, params)
      }
      navigate(loaded.view, loaded.params)
    } catch (error) {
      setStep({ kind: 'failed', scenario, message: messageOf(error) })
    }
  }

  async function choose(scenario: Scenario) {
    setStep({ kind: 'loading', scenario })
    try {
      if (await holdsWork(config)) setStep({ kind: 'asking', scenario })
      else await load(scenario, true)
    } catch (error) {
      setStep({ kind: 'failed', scenario, message: messageOf(error) })
    }
  }

  return (
    <section
      aria-labelledby={headingId}
      className={compact ? 'scenarios compact' : 'scenarios'}
      data-testid="scenarios"
    >
      <h3 id={headingId}>{compact ? 'New here? Start from a scenario' : 'Starter scenarios'}</h3>
      {!compact && (
        <p className="muted">
          Each loads a small story into the account (reset to its starting secret first) and opens
          the view where it starts, with what to try.
        </p>
      )}
      <ul className="scenario-list">
        {SCENARIOS.map((scenario) => (
          <li key={scenario.id}>
            <button
              type="button"
              className="scenario-load"
              disabled={step.kind === 'loading'}
              aria-describedby={compact ? undefined : `${headingId}-${scenario.id}`}
              onClick={() => void choose(scenario)}
            >
              {scenario.title}
            </button>
            {!compact && (
              <span id={`${headingId}-${scenario.id}`} className="muted">
                {' '}
                {scenario.summary}
              </span>
            )}
          </li>
        ))}
      </ul>
      {step.kind === 'asking' && (
        <ScenarioQuestion
          scenario={step.scenario}
          onLoad={() => void load(step.scenario, true)}
          onCancel={() => setStep({ kind: 'idle' })}
        />
      )}
      {step.kind === 'loading' && (
        <p role="status" className="muted">
          Loading “{step.scenario.title}”…
        </p>
      )}
      {step.kind === 'failed' && (
        <p role="alert">
          “{step.scenario.title}” could not be loaded: {step.message}
        </p>
      )}
    </section>
  )
}

/** Loading a scenario resets the account first: asked, in Settings → Reset's words. */
function ScenarioQuestion({
  scenario,
  onLoad,
  onCancel,
}: {
  scenario: Scenario
  onLoad: () => void
  onCancel: () => void
}) {
  const cancel = useRef<HTMLButtonElement>(null)
  useEffect(() => cancel.current?.focus(), [])
  return (
    <div role="group" aria-label="Confirm the scenario" className="confirm">
      <p>
        Load “{scenario.title}”? The account is reset first, as Settings → Reset does: every key,
        stored procedure and secret made since the page started is deleted, the secrets it started
        with come back, every authorization made so far stops working, and the exchange log is
        emptied. Export the account in Settings first to keep a copy.
      </p>
      <button type="button" className="danger primary" onClick={onLoad}>
        Reset and load the scenario
      </button>{' '}
      <button ref={cancel} type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  )
}
