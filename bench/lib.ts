/**
 * What every benchmark shares. Figures are medians of repeated rounds, printed as ratios to a
 * baseline measured in the same run: these machines are noisy, so absolute figures across runs
 * mean little.
 */

export const BASE = 'https://bench.example.test'

/** A POST to `path` under `BASE` with a bearer token, as a client sends it. */
export const request = (path: string, token: string, body = '', type = 'text/plain') =>
  new Request(`${BASE}/${path}`, {
    method: 'POST',
    headers: { authorization: `bearer ${token}`, 'content-type': type },
    body,
  })

/**
 * The floor any Fetch-shaped engine pays per call: read a Request's text, reverse it, build a
 * Response.
 */
export async function bare(req: Request): Promise<Response> {
  const text = await req.text()
  return new Response([...text].reverse().join(''), { headers: { 'content-type': 'text/plain' } })
}

/** Reads an answer, failing the benchmark unless it is a 200: a refusal is not a measurement. */
export async function ok(response: Response | Promise<Response>): Promise<string> {
  const answer = await response
  const text = await answer.text()
  if (answer.status !== 200) throw new Error(`${answer.status} ${text}`)
  return text
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

export interface PerCallOptions {
  /** Calls per round. */
  calls: number
  rounds?: number
  /** Calls made before the first round, not measured. */
  warmUp?: number
}

/** The median over rounds of the time one call takes, in µs; `fn(i)` makes the i-th call. */
export async function perCall(
  { calls, rounds = 7, warmUp = Math.min(200, calls) }: PerCallOptions,
  fn: (i: number) => Promise<unknown>,
): Promise<number> {
  let n = 0
  for (let i = 0; i < warmUp; i++) await fn(n++)
  const times: number[] = []
  for (let round = 0; round < rounds; round++) {
    const started = performance.now()
    for (let i = 0; i < calls; i++) await fn(n++)
    times.push(((performance.now() - started) * 1000) / calls)
  }
  return median(times)
}

/** Prints rows of `[what, figure]` as ratios to the first row, the baseline. */
export function printRatios(title: string, unit: string, rows: ReadonlyArray<[string, number]>) {
  const baseline = rows[0]?.[1] ?? Number.NaN
  console.log(`\n${title}`)
  console.log(`ratio to baseline  ${unit.padStart(8)}  what`)
  for (const [name, figure] of rows) {
    const ratio = (figure / baseline).toFixed(2).padStart(17)
    console.log(`${ratio}  ${figure.toFixed(figure < 10 ? 2 : 1).padStart(8)}  ${name}`)
  }
}
