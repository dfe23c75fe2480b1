// The JUnit a CI job's test tab shows: a failure's message is the step that differed, what it
// expected and what it got, every credential by its name, however the value got into the text.
import { describe, expect, it } from 'vitest'
import { junit } from './report'
import type { CaseResult } from './run'

const SECRET = 'sec-value-0123456789abcdef'
const TOKEN = 'tok-value-fedcba9876543210'

const failed: CaseResult = {
  id: `reads back ${SECRET}`,
  steps: 2,
  status: 'failed',
  reason: `step 2 (keyv.get): expected result "${SECRET}", got "${TOKEN}"; it would have passed with: a token holding keyv.get`,
  ms: 3,
  credentials: [
    [SECRET, '$secret'],
    [TOKEN, '$token'],
  ],
  stepResults: [
    {
      index: 2,
      label: `keyv.get as ${TOKEN}`,
      status: 'failed',
      differences: [
        {
          what: 'result',
          expected: JSON.stringify(SECRET),
          actual: JSON.stringify(TOKEN),
          counterfactual: 'a token holding keyv.get',
        },
      ],
      request: {
        method: 'POST',
        url: 'https://x.test/keyv/get',
        headers: { authorization: `Bearer ${TOKEN}` },
      },
      strict: [`a header carries ${SECRET}`],
    },
  ],
}

describe('junit', () => {
  it("puts the failing step, expected against received and the counterfactual in the failure's message, no credential's value", () => {
    const xml = junit('handle', [failed])
    expect(xml).toContain(
      '<failure message="step 2 (keyv.get): expected result &#34;$secret&#34;, got &#34;$token&#34;; it would have passed with: a token holding keyv.get">',
    )
    expect(xml).toContain('name="reads back $secret"')
    expect(xml).toContain('step 2 (keyv.get as $token)')
    expect(xml).toContain('authorization: Bearer $token')
    expect(xml).toContain(
      'strict mode would refuse:\nstep 2 (keyv.get as $token): a header carries $secret',
    )
    for (const value of [SECRET, TOKEN]) expect(xml).not.toContain(value.slice(0, 12))
  })
})
