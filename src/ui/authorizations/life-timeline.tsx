import type { ReachReport } from '../../engine'
import { formatDuration, formatTime } from '../shared/format'
import { lifeEvents, type LifeEvent } from './reach-tree'

const LABELS: Record<LifeEvent['kind'], (report: ReachReport) => string> = {
  created: () => 'Made',
  now: () => 'Now',
  expires: () => 'Expires',
  roll: (report) =>
    report.token.kind === 'secret'
      ? 'Its roll takes effect'
      : `Its secret ${report.token.secretId ?? ''} rolls`.replace(/ {2}/, ' '),
}

/** How far `at` is from `now`, as a person says it. */
function fromNow(at: number, now: number): string {
  if (at === now) return 'at this moment'
  return at > now ? `in ${formatDuration(at - now)}` : `${formatDuration(now - at)} ago`
}

/**
 * When a token stops working, as a line of its moments in time order: made, now, its expiry,
 * its secret's scheduled roll, the one that ends it marked. The moments are spaced evenly,
 * not by their distance: a roll decades away (or past any calendar) stays on the line.
 */
export function LifeTimeline({ report }: { report: ReachReport }) {
  const events = lifeEvents(report)
  const { stops } = report
  return (
    <div className="life" data-testid="reach-timeline">
      <h4>When it stops working</h4>
      <p className="life-summary">
        {report.token.state !== 'usable'
          ? 'It has stopped: the engine refuses it now.'
          : stops.at === null
            ? report.token.kind === 'secret'
              ? 'Never, while no roll is scheduled.'
              : 'Never by time: no expiry, and its secret has no roll scheduled. It still dies if its secret is rolled.'
            : `${fromNow(stops.at, report.at).replace(/^in /, 'In ')}, at ${formatTime(stops.at)}: ${
                stops.because === 'roll' ? "its secret's roll" : 'its expiry'
              }.`}
      </p>
      <ol className="life-line" aria-label="Its moments, in time order">
        {events.map((event) => (
          <li
            key={event.kind}
            className={`life-event life-${event.kind}${event.stops ? ' life-stops' : ''}${
              event.at < report.at ? ' life-past' : ''
            }`}
            data-kind={event.kind}
          >
            <span className="life-dot" aria-hidden="true" />
            <span className="life-label">
              {LABELS[event.kind](report)}
              {event.stops && <strong className="life-end"> — it stops here</strong>}
            </span>
            <span className="life-time">{formatTime(event.at)}</span>
            {event.kind !== 'now' && (
              <span className="life-from muted">{fromNow(event.at, report.at)}</span>
            )}
          </li>
        ))}
      </ol>
    </div>
  )
}
