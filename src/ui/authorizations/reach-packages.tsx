import { useDeferredValue, useMemo, useState } from 'react'
import type { Counterfactual, ReachEndpoint, ReachReport, TokenSummary } from '../../engine'
import { abilityToHold, fixParams } from '../shared/counterfactual'
import { useNow } from '../shared/clock'
import { ErrorBoundary } from '../shared/error-boundary'
import { Field } from '../shared/field'
import { codeLabel, reasonLabel } from '../shared/labels'
import { Name, visibleText } from '../shared/quoted'
import { routeHref } from '../shared/router'
import { reachTree, type PackageNode } from './reach-tree'
import { useComposeHref } from './use-composition'

/** A package with more endpoints than this starts folded (the stored procedures, say). */
const OPEN_UP_TO = 40
/** Endpoints drawn at first in a package; the rest on asking. */
const DRAWN = 100

type Shown = 'all' | 'allowed' | 'refused'

/**
 * Every package and endpoint of the catalogue, allowed or refused and why, as a tree of
 * packages (each a disclosure that says how much of it the token reaches). A name filter and
 * a choice of allowed or refused narrow it; a long package draws its first hundred endpoints.
 */
export function ReachPackages({ report, choiceId }: { report: ReachReport; choiceId?: string }) {
  const [typed, setTyped] = useState('')
  const [shown, setShown] = useState<Shown>('all')
  const text = useDeferredValue(typed.trim().toLowerCase())
  const roots = useMemo(() => reachTree(report), [report])
  const matches = (endpoint: ReachEndpoint) =>
    (shown === 'all' || endpoint.decision === shown) &&
    (text === '' || visibleText(endpoint.endpoint).toLowerCase().includes(text))
  const filtering = text !== '' || shown !== 'all'
  const visible = roots.filter((node) => node.all.some(matches))
  const allowed = report.endpoints.filter((e) => e.decision === 'allowed').length
  return (
    <div className="reach-packages">
      <h4>Packages and endpoints</h4>
      <p className="muted" data-testid="reach-count">
        It can call {allowed} of the {report.endpoints.length} endpoints.
      </p>
      <div className="reach-filters">
        <Field label="Find an endpoint">
          {(id) => (
            <input
              id={id}
              type="search"
              value={typed}
              spellCheck={false}
              autoComplete="off"
              placeholder="keyv.get, lib.report…"
              onChange={(event) => setTyped(event.target.value)}
            />
          )}
        </Field>
        <Field label="Show">
          {(id) => (
            <select
              id={id}
              value={shown}
              onChange={(event) => setShown(event.target.value as Shown)}
            >
              <option value="all">allowed and refused</option>
              <option value="allowed">allowed only</option>
              <option value="refused">refused only</option>
            </select>
          )}
        </Field>
      </div>
      {visible.length === 0 ? (
        <p className="empty">No endpoint matches.</p>
      ) : (
        <ul className="reach-tree" aria-label="Packages of the catalogue">
          {visible.map((node) => (
            <li key={node.info.package}>
              <ErrorBoundary what={`The package ${visibleText(node.info.package)}`}>
                <PackageItem
                  node={node}
                  report={report}
                  matches={matches}
                  filtering={filtering}
                  {...(choiceId ? { choiceId } : {})}
                />
              </ErrorBoundary>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

const DECISION_WORDS = { all: 'all', some: 'some', none: 'none' } as const

function PackageItem({
  node,
  report,
  matches,
  filtering,
  choiceId,
}: {
  node: PackageNode
  report: ReachReport
  matches: (endpoint: ReachEndpoint) => boolean
  filtering: boolean
  choiceId?: string
}) {
  const { info } = node
  const [more, setMore] = useState(false)
  const endpoints = node.endpoints.filter(matches)
  const packages = node.packages.filter((p) => p.all.some(matches))
  const drawn = more ? endpoints : endpoints.slice(0, DRAWN)
  const insecure = node.all.some((e) => e.insecure)
  return (
    <details
      className="reach-package"
      open={filtering || node.all.length <= OPEN_UP_TO}
      data-testid="reach-package"
      data-package={info.package}
      data-decision={info.decision}
    >
      <summary>
        <code>
          <Name text={info.package} />
        </code>{' '}
        <span className={`reach-badge reach-${info.decision}`}>
          {DECISION_WORDS[info.decision]}: {info.allowed} of {info.endpoints}
        </span>
        {insecure && <span className="badge badge-insecure">insecure</span>}
      </summary>
      {info.decision !== 'all' &&
        report.token.state === 'usable' &&
        report.token.kind !== 'secret' && (
          <p className="muted reach-hint">
            Holding{' '}
            <ComposeLink
              token={report.token}
              counterfactual={{
                code: 'missing_ability',
                change: 'add_ability',
                ability: info.package,
                ...(insecure ? { insecure: true } : {}),
                sentence: '',
              }}
            />{' '}
            would reach every endpoint in it{insecure ? ' (it is insecure: insecure: true)' : ''}.
          </p>
        )}
      {(packages.length > 0 || drawn.length > 0) && (
        <ul className="reach-children">
          {packages.map((child) => (
            <li key={child.info.package}>
              <PackageItem
                node={child}
                report={report}
                matches={matches}
                filtering={filtering}
                {...(choiceId ? { choiceId } : {})}
              />
            </li>
          ))}
          {drawn.map((endpoint) => (
            <EndpointRow
              key={endpoint.endpoint}
              endpoint={endpoint}
              token={report.token}
              usable={report.token.state === 'usable'}
              {...(choiceId ? { choiceId } : {})}
            />
          ))}
        </ul>
      )}
      {drawn.length < endpoints.length && (
        <button type="button" className="link" onClick={() => setMore(true)}>
          Show {endpoints.length - drawn.length} more
        </button>
      )}
    </details>
  )
}

/** One endpoint: allowed by what, or refused and what would let it in. */
function EndpointRow({
  endpoint,
  token,
  usable,
  choiceId,
}: {
  endpoint: ReachEndpoint
  token: TokenSummary
  usable: boolean
  choiceId?: string
}) {
  const allowed = endpoint.decision === 'allowed'
  const wanted = endpoint.counterfactual ? abilityToHold(endpoint.counterfactual) : undefined
  const alternatives = endpoint.counterfactual?.alternatives ?? []
  return (
    <li
      className={`reach-endpoint reach-endpoint-${endpoint.decision}`}
      data-testid="reach-endpoint"
      data-endpoint={endpoint.endpoint}
      data-decision={endpoint.decision}
    >
      <span className={`reach-badge ${allowed ? 'reach-all' : 'reach-none'}`}>
        {endpoint.decision}
      </span>
      <span className="reach-name">
        <code>
          <Name text={endpoint.endpoint} />
        </code>
        {endpoint.insecure && <span className="badge badge-insecure">insecure</span>}
      </span>
      <span className="reach-why">
        {allowed ? (
          endpoint.grant === 'secret' ? (
            'by the secret key'
          ) : (
            <>
              by{' '}
              <code>
                <Name text={endpoint.ability ?? ''} />
              </code>
            </>
          )
        ) : !usable ? (
          reasonLabel(endpoint.code ?? 'refused')
        ) : wanted ? (
          <>
            {codeLabel(endpoint.code ?? '') ?? endpoint.code}: needs{' '}
            <ComposeLink counterfactual={endpoint.counterfactual!} token={token} />
            {alternatives.length > 0 && (
              <>
                {' '}
                (or{' '}
                {alternatives.map((alternative, i) => (
                  <span key={alternative}>
                    {i > 0 && ', '}
                    <code>
                      <Name text={alternative} />
                    </code>
                  </span>
                ))}
                )
              </>
            )}
            {endpoint.counterfactual?.insecure && ', with insecure: true'}
          </>
        ) : (
          endpoint.explanation
        )}
      </span>
      {choiceId && (
        <a
          className="reach-try"
          href={routeHref('console', { endpoint: endpoint.endpoint, token: choiceId })}
          aria-label={`Call ${visibleText(endpoint.endpoint)} in the console`}
        >
          Call in console
        </a>
      )}
    </li>
  )
}

/**
 * The ability a change names, as a link that fills the composer above: the token inspected with
 * that change made (its other abilities, limits and lifetime as they are).
 */
function ComposeLink({
  counterfactual,
  token,
}: {
  counterfactual: Counterfactual
  token: TokenSummary
}) {
  const composeHref = useComposeHref()
  const now = useNow()
  const ability = abilityToHold(counterfactual) ?? ''
  const params = fixParams(counterfactual, token, now) ?? new URLSearchParams()
  return (
    <a
      href={composeHref(params)}
      title="Compose this token again with it"
      onClick={() =>
        requestAnimationFrame(() =>
          document.getElementById('composer-heading')?.scrollIntoView?.({ block: 'start' }),
        )
      }
    >
      <code>
        <Name text={ability} />
      </code>
    </a>
  )
}
