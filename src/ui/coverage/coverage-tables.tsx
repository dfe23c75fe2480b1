import { useState } from 'react'
import type { CoverageReport } from '../../engine'
import { codeLabel } from '../shared/labels'
import { Name } from '../shared/quoted'
import type { PageCoverage } from './coverage-api'

/** Endpoints drawn at first; the rest on asking. */
const DRAWN = 100

const CREDENTIALS = {
  secret: 'secret key',
  authorization: 'authorization',
  none: 'no token',
  unknown: 'unknown token',
} as const

/** The limit dimensions a cell exercised, in words, with their counts. */
function dimensionsText(dimensions: Partial<Record<string, number>>): string {
  const named = Object.entries(dimensions).filter(([name, n]) => name !== 'none' && n)
  return named.length === 0 ? '—' : named.map(([name, n]) => `${name} ${n}`).join(', ')
}

/**
 * Endpoint × credential kind × outcome × limit dimension: each endpoint called, with its calls
 * by the credential that made them and how each ended, and the limits each exercised.
 */
export function EndpointCells({ report }: { report: PageCoverage }) {
  const [all, setAll] = useState(false)
  const endpoints = all ? report.endpoints : report.endpoints.slice(0, DRAWN)
  // Flagged by the engine: minting and managing procedures are a secret's to call.
  const flaggedSecret = new Set(
    report.flags.filter((flag) => flag.kind === 'only_secret').map((flag) => flag.subject),
  )
  return (
    <section
      aria-labelledby="coverage-endpoints-heading"
      className="panel"
      data-testid="coverage-endpoints"
    >
      <h2 id="coverage-endpoints-heading">
        Endpoints called <span className="muted">({report.endpoints.length})</span>
      </h2>
      <p className="muted">
        Each endpoint&apos;s calls by credential and outcome, and the limits they exercised: a
        bucket or prefix limit, an expiry, a scheduled or past roll, an insecure ability.
      </p>
      <ul className="coverage-endpoints">
        {endpoints.map((endpoint) => (
          <li
            key={endpoint.endpoint}
            data-testid="coverage-endpoint"
            data-endpoint={endpoint.endpoint}
            className="coverage-endpoint"
          >
            <h3>
              <code>
                <Name text={endpoint.endpoint} />
              </code>{' '}
              <span className="muted">
                {endpoint.calls} {endpoint.calls === 1 ? 'call' : 'calls'}
              </span>
              {flaggedSecret.has(endpoint.endpoint) && (
                <span className="coverage-tag">only a secret key</span>
              )}
            </h3>
            <table className="coverage-cells">
              <thead>
                <tr>
                  <th scope="col">Credential</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Calls</th>
                  <th scope="col">Limits exercised</th>
                </tr>
              </thead>
              <tbody>
                {report.cells
                  .filter((cell) => cell.endpoint === endpoint.endpoint)
                  .map((cell) => (
                    <tr
                      key={`${cell.credential}\u0000${cell.outcome}`}
                      data-testid="coverage-cell"
                      data-credential={cell.credential}
                      data-outcome={cell.outcome}
                    >
                      <td>{CREDENTIALS[cell.credential]}</td>
                      <td>
                        <span
                          className={cell.outcome === 'allowed' ? 'coverage-ok' : 'coverage-bad'}
                        >
                          {cell.outcome}
                        </span>
                      </td>
                      <td>{cell.count}</td>
                      <td>{dimensionsText(cell.dimensions)}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          </li>
        ))}
      </ul>
      {endpoints.length < report.endpoints.length && (
        <button type="button" className="link" onClick={() => setAll(true)}>
          Show {report.endpoints.length - endpoints.length} more
        </button>
      )}
    </section>
  )
}

/** The refusals of authorization: met how often, and whether what the client did calls for them. */
export function RefusalTable({ report }: { report: CoverageReport }) {
  return (
    <section
      aria-labelledby="coverage-refusals-heading"
      className="panel"
      data-testid="coverage-refusals"
    >
      <h2 id="coverage-refusals-heading">Refusals met</h2>
      <table className="coverage-table">
        <thead>
          <tr>
            <th scope="col">Refusal</th>
            <th scope="col">Met</th>
            <th scope="col">Counted</th>
          </tr>
        </thead>
        <tbody>
          {report.refusals.map((refusal) => (
            <tr key={refusal.code} data-testid="coverage-refusal" data-code={refusal.code}>
              <td>
                <code>{refusal.code}</code>
                <span className="muted"> {codeLabel(refusal.code) ?? refusal.means}</span>
              </td>
              <td
                className={refusal.met > 0 ? 'coverage-ok' : refusal.relevant ? 'coverage-bad' : ''}
              >
                {refusal.met}
              </td>
              <td>{refusal.relevant ? 'yes' : 'no'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">
        Counted: what the client did calls for it (an authorization held, a limit, an expiry,
        insecure: true); the rest are listed, not scored.
      </p>
    </section>
  )
}

/** Each ability minted or held: minted how often, calls it let in, refusals at its edge. */
export function AbilityTable({ report }: { report: CoverageReport }) {
  const [all, setAll] = useState(false)
  const abilities = all ? report.abilities : report.abilities.slice(0, DRAWN)
  return (
    <section
      aria-labelledby="coverage-abilities-heading"
      className="panel"
      data-testid="coverage-abilities"
    >
      <h2 id="coverage-abilities-heading">
        Abilities <span className="muted">({report.abilities.length})</span>
      </h2>
      {report.abilities.length === 0 ? (
        <p className="muted">No authorization was minted or used.</p>
      ) : (
        <table className="coverage-table">
          <thead>
            <tr>
              <th scope="col">Ability</th>
              <th scope="col">Minted</th>
              <th scope="col">Let in</th>
              <th scope="col">Refused</th>
            </tr>
          </thead>
          <tbody>
            {abilities.map((use) => (
              <tr key={use.ability} data-testid="coverage-ability" data-ability={use.ability}>
                <td>
                  <code>
                    <Name text={use.ability} />
                  </code>
                </td>
                <td>{use.minted}</td>
                <td className={use.allowed > 0 ? 'coverage-ok' : 'coverage-bad'}>{use.allowed}</td>
                <td className={use.refused > 0 ? 'coverage-ok' : 'coverage-bad'}>{use.refused}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {abilities.length < report.abilities.length && (
        <button type="button" className="link" onClick={() => setAll(true)}>
          Show {report.abilities.length - abilities.length} more
        </button>
      )}
    </section>
  )
}
