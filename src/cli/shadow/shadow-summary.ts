import { shadowSummary } from '../conformance/summary'
import type { ParityReportJson, ReportedExchange } from '../../shadow/parity-report'
import type { Shadow } from '../../shadow/shadow'

/** How many exchanges the shadow compared, whatever their outcome. */
export const comparedOf = ({ totals }: ParityReportJson) =>
  totals.agreed + totals.differs + totals['unknown-state'] + totals.noise + totals.follows

/**
 * The shadow's report as a job summary's section (`serve --upstream`, `verify --shadow`,
 * `conformance --shadow`, `drift`): each difference with its saved contract. `exchanges`
 * stands in for the report's own (drift names the contracts it wrote beside the old ones).
 */
export function shadowReportSummary(
  shadow: Pick<Shadow, 'report'>,
  title = 'shadow: the engine beside the upstream',
  exchanges: readonly ReportedExchange[] = shadow.report.exchanges,
): string {
  const json = shadow.report.toJSON()
  return shadowSummary(title, json.upstream, exchanges, {
    compared: comparedOf(json),
    notCompared: json.totals.notCompared,
  })
}
