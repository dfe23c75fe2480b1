import type { CoverageFlag } from '../../engine'
import { codeLabel } from '../shared/labels'
import { useState } from 'react'
import { Quoted, visibleText } from '../shared/quoted'
import { routeHref } from '../shared/router'
import type { PageCoverage } from './coverage-api'

const GROUPS: Array<{ kind: CoverageFlag['kind']; title: string; about: string }> = [
  {
    kind: 'ability_never_allowed',
    title: 'Abilities never seen letting a call in',
    about: 'Minted or held, but no call used them for what they grant.',
  },
  {
    kind: 'ability_never_refused',
    title: 'Abilities never seen refusing a call',
    about: 'No call went past their edge: what they do not reach was never shown.',
  },
  {
    kind: 'code_never_met',
    title: 'Refusals never met',
    about: 'Refusals a client of these abilities should handle, never answered.',
  },
  {
    kind: 'only_secret',
    title: 'Endpoints called only with a secret key',
    about: 'No call made them as an authorization in a browser or an app would.',
  },
]

/** What the log never exercised, by kind, each in the engine's sentence. */
export function CoverageFlags({ report }: { report: PageCoverage }) {
  return (
    <section
      aria-labelledby="coverage-flags-heading"
      className="panel"
      data-testid="coverage-flags"
    >
      <h2 id="coverage-flags-heading">
        Never exercised <span className="muted">({report.flags.length})</span>
      </h2>
      {report.flags.length === 0 ? (
        <p className="coverage-clean">Nothing: every item counted was exercised.</p>
      ) : (
        <div className="coverage-groups">
          {GROUPS.map(({ kind, title, about }) => {
            const flags = report.flags.filter((flag) => flag.kind === kind)
            if (flags.length === 0) return null
            return (
              <section key={kind} aria-label={title} data-testid={`flags-${kind}`}>
                <h3>
                  {title} <span className="muted">({flags.length})</span>
                </h3>
                <p className="muted">{about}</p>
                <FlagList flags={flags} kind={kind} />
              </section>
            )
          })}
        </div>
      )}
    </section>
  )
}

/** Flags drawn at first in a group; the rest on asking. */
const DRAWN = 50

/** One group's flags, each the engine's sentence (which names the ability, code or endpoint). */
function FlagList({ flags, kind }: { flags: readonly CoverageFlag[]; kind: CoverageFlag['kind'] }) {
  const [all, setAll] = useState(false)
  const drawn = all ? flags : flags.slice(0, DRAWN)
  return (
    <>
      <ul className="coverage-flag-list">
        {drawn.map((flag) => (
          <li key={flag.subject} data-testid="coverage-flag" data-subject={flag.subject}>
            <Quoted text={flag.sentence} />
            {kind === 'code_never_met' && codeLabel(flag.subject) && (
              <span className="muted"> ({codeLabel(flag.subject)})</span>
            )}
            {kind === 'only_secret' && (
              <>
                {' '}
                <a
                  href={routeHref('console', { endpoint: flag.subject })}
                  aria-label={`Call ${visibleText(flag.subject)} in the console`}
                >
                  Call it in the console
                </a>
              </>
            )}
          </li>
        ))}
      </ul>
      {drawn.length < flags.length && (
        <button type="button" className="link" onClick={() => setAll(true)}>
          Show {flags.length - drawn.length} more
        </button>
      )}
    </>
  )
}
