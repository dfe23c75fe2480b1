import { describe, expect, it } from 'vitest'
import { parseCaseFile } from './cases'
import { verifyContracts } from './contract/verify'
import { stepReport } from './report'
import { formatDifference } from './run'
import { handleTarget } from './targets'

const contract = parseCaseFile(
  'app.json',
  JSON.stringify({
    description: 'a contract whose app assumed more than its authorization holds',
    cases: [
      {
        name: 'reverses with a narrow authorization',
        fresh: true,
        steps: [
          { mint: 'auth1', from: 'secret', abilities: ['keyv.get?bucket=users&prefix=alice/'] },
          {
            call: 'keyv.get',
            token: '$auth1',
            args: { bucket: 'users', key: 'bob/1' },
            expect: { status: 200, result: null },
          },
        ],
      },
    ],
  }),
)

describe("verify's differences", () => {
  it('say what would have let a refused step in, asked of the target', async () => {
    const [result] = await verifyContracts(handleTarget(), contract)
    const difference = result!.stepResults[1]!.differences[0]!
    expect(difference).toMatchObject({ what: 'status', expected: '200' })
    expect(difference.counterfactual).toBe(
      "`keyv.get?bucket=users&prefix=alice/' widened to `keyv.get?bucket=users' would reach bucket `users' for key `bob/1'; or add `keyv.get?bucket=users&prefix=bob/1'",
    )
    expect(formatDifference(difference)).toMatch(
      /^expected status 200, got 401 .*; it would have passed with: `keyv\.get/,
    )
    expect(stepReport('handle', [result!])).toContain('it would have passed with:')
  })

  it('say nothing more where the target has no control plane to ask', async () => {
    const { control, ...engine } = handleTarget()
    const secret = ((await control!('secrets', {})) as { key: string }).key
    const [result] = await verifyContracts(
      { ...engine, secret },
      contract.map((c) => ({ ...c, fresh: false })),
    )
    const difference = result!.stepResults[1]!.differences[0]!
    expect(difference.what).toBe('status')
    expect(difference.counterfactual).toBeUndefined()
  })
})
