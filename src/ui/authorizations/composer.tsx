import { useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useId, useMemo, useRef } from 'react'
import type { AbilityWorld } from '../shared/abilities'
import { packagesOf, useCatalogue } from '../shared/catalogue'
import { useNow } from '../shared/clock'
import { useConfig } from '../shared/config'
import { useLoggedExchange } from '../shared/exchange-log'
import { Field } from '../shared/field'
import { messageOf } from '../shared/format'
import { Masked } from '../shared/masked'
import { NextStep } from '../shared/next-step'
import { procedureNames, proceduresQuery, useAccountMutation } from '../shared/queries'
import { Quoted } from '../shared/quoted'
import { RefusalReason } from '../shared/refusal'
import { routeHref } from '../shared/router'
import { errorMessageOf, tokenOf } from '../shared/token-answer'
import { useRememberedActions, useTokenChoices } from '../shared/tokens'
import { BODY_FORMATS, mediaTypeOf, planCall, sendPlan, type BodyFormat } from '../shared/wire'
import { AbilityTree } from './ability-tree'
import { ChosenAbilities } from './chosen-abilities'
import { CompositionOrigin } from './composition-origin'
import { planComposition, toDraft, type Composition, type Finding } from './compose'
import { ExpiryFields } from './expiry-fields'
import { KeyvLimitForm } from './keyv-limit-form'
import { RequestPreview } from './request-preview'
import { useComposition } from './use-composition'
import { pickSigner, signerChoices, SignerField } from './signer-field'

const FORMAT_LABELS: Record<BodyFormat, string> = {
  text: 'text: arguments in the query string',
  json: 'JSON: arguments in the query string',
  tuples: 'tuples (vnd+json)',
  msgpack: 'tuples in MessagePack',
  query: 'query string only, no body',
}

const FINDING_LABELS: Record<Finding['level'], string> = {
  form: 'Not sent:',
  engine: 'The engine will refuse:',
  warning: 'Note:',
}

/**
 * Composes `auth.create` without writing tuples by hand: abilities from the catalogue, limits
 * on key-value abilities, the insecure switch, an expiry and/or ttl, the signing token and the
 * body format; shows the exact request before sending it.
 */
export function Composer() {
  const { baseUrl, serviceName } = useConfig()
  const catalogue = useCatalogue()
  const procedures = useQuery({ ...proceduresQuery(baseUrl), select: procedureNames })
  const now = useNow()
  const insecureId = useId()
  const { composition, setComposition, signerId, setSignerId } = useComposition()
  const signers = signerChoices(useTokenChoices().choices)
  const signer = pickSigner(signers, signerId)
  const { remember } = useRememberedActions()

  const world = useMemo<AbilityWorld | undefined>(
    () =>
      catalogue.data && {
        endpoints: catalogue.data,
        packages: packagesOf(catalogue.data),
        procedures: procedures.data ?? [],
        serviceName,
      },
    [catalogue.data, procedures.data, serviceName],
  )
  const planned = planComposition(composition, now, world)
  const draft = toDraft(planned, signer?.token ?? '', composition.format)
  const blocked = planned.findings.some((finding) => finding.level === 'form')
  const refused = planned.findings.some((finding) => finding.level === 'engine')

  const send = useAccountMutation(async () => {
    const result = await sendPlan(planCall(baseUrl, serviceName, draft))
    const token = result.status === 200 ? tokenOf(result.bytes, result.contentType) : undefined
    if (token) await remember(token)
    return { result, token, message: errorMessageOf(result.bytes, result.contentType) }
  })
  const logged = useLoggedExchange(
    send.data && send.data.result.status >= 400 ? send.data.result.sent : undefined,
  )
  // The answer takes the focus, so it is read out and the keyboard goes on from there.
  const answerRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (send.data) answerRef.current?.focus()
  }, [send.data])

  const change = (patch: Partial<Composition>) => setComposition((c) => ({ ...c, ...patch }))
  const add = useCallback(
    (ability: string) =>
      setComposition((c) =>
        c.abilities.includes(ability) ? c : { ...c, abilities: [...c.abilities, ability] },
      ),
    [setComposition],
  )
  const remove = useCallback(
    (ability: string) =>
      setComposition((c) => ({ ...c, abilities: c.abilities.filter((a) => a !== ability) })),
    [setComposition],
  )
  const toggle = useCallback(
    (name: string, on: boolean) => (on ? add(name) : remove(name)),
    [add, remove],
  )

  return (
    <section aria-labelledby="composer-heading" className="panel composer">
      <h2 id="composer-heading">
        Compose <code>auth.create</code>
      </h2>
      <p className="muted">
        An authorization reaches only the abilities it is given, until it expires or its secret
        dies. Pick them from the engine’s catalogue, check the request, then send it.
      </p>
      <div className="composer-grid">
        <div className="composer-abilities">
          <h3>Catalogue</h3>
          {catalogue.isError && <p role="alert">{messageOf(catalogue.error)}</p>}
          {procedures.isError && <p role="alert">{messageOf(procedures.error)}</p>}
          {world ? (
            <AbilityTree world={world} selected={composition.abilities} onToggle={toggle} />
          ) : (
            !catalogue.isError && <p className="muted">Reading the catalogue…</p>
          )}
          <h3>Key-value limits</h3>
          <KeyvLimitForm endpoints={catalogue.data ?? []} onAdd={add} />
        </div>
        <div className="composer-options">
          <CompositionOrigin composition={composition} />
          <ChosenAbilities abilities={composition.abilities} onAdd={add} onRemove={remove} />
          <div className="insecure-switch">
            <input
              id={insecureId}
              type="checkbox"
              checked={composition.insecure}
              onChange={(e) => change({ insecure: e.target.checked })}
            />
            <label htmlFor={insecureId}>
              <code>insecure: true</code> (needed to grant an insecure ability)
            </label>
          </div>
          <ExpiryFields composition={composition} planned={planned} now={now} onChange={change} />
          <SignerField signers={signers} signer={signer} onChange={setSignerId} />
          <Field label="Body format">
            {(id) => (
              <select
                id={id}
                value={composition.format}
                onChange={(e) => change({ format: e.target.value as BodyFormat })}
              >
                {BODY_FORMATS.map((format) => (
                  <option key={format} value={format}>
                    {FORMAT_LABELS[format]}
                    {mediaTypeOf(format, serviceName)
                      ? ` — ${mediaTypeOf(format, serviceName)}`
                      : ''}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      </div>

      {planned.findings.length > 0 && (
        <ul className="findings" aria-label="Before sending" aria-live="polite">
          {planned.findings.map((finding, index) => (
            <li
              key={index}
              className={`finding finding-${finding.level}`}
              data-level={finding.level}
            >
              <strong>{FINDING_LABELS[finding.level]}</strong> <Quoted text={finding.message} />
            </li>
          ))}
        </ul>
      )}

      <RequestPreview draft={draft} />

      <div className="send-row">
        <button
          type="button"
          className="primary"
          disabled={blocked || !signer}
          // Not disabled while it sends: the focus would drop out of the page.
          aria-disabled={send.isPending ? true : undefined}
          onClick={() => !send.isPending && send.mutate()}
        >
          Create authorization
        </button>
        {blocked ? (
          <span className="muted">Fix what the form says above first.</span>
        ) : (
          refused && (
            <span className="muted">
              As it stands the engine will refuse it (see above); send it to read its answer.
            </span>
          )
        )}
      </div>
      {send.isError && <p role="alert">Nothing answered: {messageOf(send.error)}</p>}
      {send.data && (
        <div
          ref={answerRef}
          tabIndex={-1}
          className="send-answer"
          aria-live="polite"
          data-testid="send-answer"
        >
          {send.data.token ? (
            <>
              <p>
                <span className="ok">
                  {send.data.result.status} {send.data.result.statusText}
                </span>
                : created and remembered below.
              </p>
              <Masked value={send.data.token} label="the new authorization" />
              <NextStep testId="authorization-next">
                Next:{' '}
                <a href={routeHref('console', { token: `authorization:${send.data.token}` })}>
                  use it in the console
                </a>{' '}
                to see what it may call and what it is refused, or give it to a client: it reaches
                only its abilities.
              </NextStep>
            </>
          ) : (
            <p role="alert">
              <span>
                {send.data.result.status} {send.data.result.statusText}
              </span>
              : <Quoted text={send.data.message} />
            </p>
          )}
          {logged && !send.data.token && <RefusalReason trace={logged.trace} />}
        </div>
      )}
    </section>
  )
}
