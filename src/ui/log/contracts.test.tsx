import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Service } from '../../node'
import { renderWithService } from '../../testing/render'
import { ExchangeLogFollower } from '../shared/exchange-log'
import { CaseList } from './contract-cases'
import type { CaseFile } from './contracts'
import LogView from './log-view'

const Followed = () => (
  <>
    <ExchangeLogFollower />
    <LogView />
  </>
)

/** The view, and a way to leave it and come back (as the nav does). */
function Leaving() {
  const [shown, setShown] = useState(true)
  return (
    <>
      <button type="button" onClick={() => setShown(!shown)}>
        {shown ? 'Leave the view' : 'Open the view'}
      </button>
      {shown && <Followed />}
    </>
  )
}

afterEach(() => vi.restoreAllMocks())

/** A request from the test itself, as code in the page sends it. */
function send(service: Service, name: string, body: string, token = service.secret, query = '') {
  return fetch(`${service.baseUrl}/${name.replaceAll('.', '/')}${query ? `?${query}` : ''}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
    body,
  })
}

/** Opens `text` as the file `name` through the log's file picker. */
async function openFile(name: string, text: string | Blob) {
  const file = new File([text], name, { type: 'application/json' })
  fireEvent.change(screen.getByLabelText('Contract file to open'), { target: { files: [file] } })
  const panel = await screen.findByTestId('contract')
  await waitFor(() => expect(panel.getAttribute('aria-busy')).toBe('false'))
  return panel
}

describe('Open contract', { timeout: 20_000 }, () => {
  it('says why a file is not a contract, with the JSON path, and the log stays', async () => {
    await renderWithService(<Followed />)
    const cases = [
      ['broken.json', '{"cases": [', 'broken.json: not valid JSON ('],
      [
        'page.har',
        '{"log": {"entries": []}}',
        "page.har: (the file) must have required property 'description'",
      ],
      [
        'steps.json',
        JSON.stringify({ description: 'd', cases: [{ name: 'n', steps: 'none' }] }),
        'steps.json: /cases/0/steps must be array',
      ],
      [
        'huge.json',
        new Blob([' '.repeat(6 * 1024 * 1024)]),
        'huge.json: 6.0 MB is more than the 5.0 MB the playground opens; verify it with the command line instead',
      ],
    ] as const
    for (const [name, text, message] of cases) {
      const panel = await openFile(name, text)
      expect(within(panel).getByRole('heading').textContent).toBe(`Contract ${name}`)
      await waitFor(() => expect(document.activeElement?.id).toBe('log-contract-heading'))
      expect(within(panel).getByTestId('contract-error').textContent).toContain(message)
      expect(within(panel).queryByRole('button', { name: /^Replay/ })).toBeNull()
      expect(screen.getByRole('heading', { name: 'Exchange log' })).toBeTruthy()
    }
    fireEvent.click(screen.getByRole('button', { name: 'Close the contract' }))
    expect(screen.queryByTestId('contract')).toBeNull()
  })

  it('replays a contract after asking, each step passed or differing with the request and the answer', async () => {
    const { service } = await renderWithService(<Followed />)
    const set = await send(service, 'keyv.set', '', service.secret, 'bucket=b&key=k&value=1')
    expect(set.status).toBe(200)
    const contract: CaseFile = {
      description: 'Two cases, one of them wrong.',
      cases: [
        {
          name: 'pings',
          steps: [{ call: 'core.ping', format: 'text', expect: { status: 200, result: true } }],
        },
        {
          name: 'reverses',
          steps: [
            { call: 'core.ping', format: 'text', expect: { status: 200, result: true } },
            {
              call: 'type.string.reverse',
              format: 'text',
              input: 'abc',
              expect: { status: 200, result: 'xyz' },
            },
          ],
        },
      ],
    }
    const panel = await openFile('two.json', JSON.stringify(contract))
    expect(within(panel).getByText('Two cases, one of them wrong.')).toBeTruthy()
    const listed = () => within(panel).getAllByTestId('contract-case')
    expect(listed().map((c) => [c.dataset.status, c.textContent])).toEqual([
      ['not-run', 'not runpings1 step'],
      ['not-run', 'not runreverses2 steps'],
    ])

    // Asked first; cancelled, nothing is reset.
    fireEvent.click(within(panel).getByRole('button', { name: 'Replay…' }))
    const confirm = within(panel).getByRole('group', { name: 'Confirm the replay' })
    expect(confirm.textContent).toContain("Replaying resets this page's account before each case")
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }))
    expect((await send(service, 'core.ping', '')).status).toBe(200)

    fireEvent.click(within(panel).getByRole('button', { name: 'Replay…' }))
    fireEvent.click(within(panel).getByRole('button', { name: 'Reset the account and replay' }))
    const summary = await within(panel).findByTestId('contract-summary', {}, { timeout: 5000 })
    expect(summary.textContent).toBe(
      "Replayed 2 cases against this page's engine: 1 passed, 1 differs, 0 skipped.",
    )
    expect(listed().map((c) => c.dataset.status)).toEqual(['passed', 'failed'])
    const steps = within(listed()[1]!).getAllByTestId('contract-step')
    expect(steps.map((step) => step.dataset.status)).toEqual(['passed', 'failed'])
    expect(within(steps[1]!).getByTestId('step-differences').textContent).toBe(
      'expected result "xyz", got "cba"',
    )
    const exchange = within(steps[1]!).getByLabelText('Step 2: the request and the answer')
    expect(exchange.textContent).toContain(`POST ${service.baseUrl}/type/string/reverse`)
    expect(exchange.textContent).toContain('authorization: Bearer $secret')
    expect(exchange.textContent).toContain('answered 200')
    expect(within(listed()[1]!).getByText(/^step 2 \(type\.string\.reverse\): expected result/))

    // The account was reset: the key set before is gone.
    const buckets = await fetch(`${service.baseUrl}/_account/buckets`)
    expect(await buckets.json()).toEqual([])
  })

  it('keeps the contract and its replay when the view is left and opened again', async () => {
    await renderWithService(<Leaving />)
    const text = JSON.stringify({
      description: 'One case.',
      cases: [{ name: 'pings', steps: [{ call: 'core.ping', expect: { status: 200 } }] }],
    })
    const panel = await openFile('one.json', text)
    fireEvent.click(within(panel).getByRole('button', { name: 'Replay…' }))
    fireEvent.click(within(panel).getByRole('button', { name: 'Reset the account and replay' }))
    await within(panel).findByTestId('contract-summary', {}, { timeout: 5000 })
    fireEvent.click(screen.getByRole('button', { name: 'Leave the view' }))
    expect(screen.queryByTestId('contract')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Open the view' }))
    const again = screen.getByTestId('contract')
    expect(within(again).getByTestId('contract-summary').textContent).toContain('1 passed')
    expect(within(again).getByRole('button', { name: 'Replay again…' })).toBeTruthy()
  })
})

describe('CaseList', () => {
  it('shows a skipped step with its reason, and what strict mode would refuse', () => {
    render(
      <CaseList
        fileName="c.json"
        cases={[
          {
            id: 'c.json › rolls',
            file: 'c.json',
            format: 'tuples',
            fresh: true,
            steps: [],
            notes: ['a roll no exchange shows is left out'],
          },
        ]}
        results={[
          {
            id: 'c.json › rolls',
            status: 'skipped',
            reason: 'step 2 needs the account control plane',
            steps: [
              {
                index: 1,
                label: 'core.ping',
                status: 'passed',
                differences: [],
                strict: ['no content-type header'],
              },
              {
                index: 2,
                label: 'roll $secret',
                status: 'skipped',
                reason: 'needs the account control plane, which this target does not offer',
                differences: [],
                strict: [],
              },
            ],
          },
        ]}
      />,
    )
    const [item] = screen.getAllByTestId('contract-case')
    expect(item!.dataset.status).toBe('skipped')
    expect(item!.textContent).toContain('rolls0 steps, on an empty account')
    expect(item!.textContent).toContain('Notes (1)')
    const [ping, roll] = screen.getAllByTestId('contract-step')
    expect(ping!.textContent).toBe(
      'passed1.core.pingStrict mode would refuse it: no content-type header',
    )
    expect(roll!.textContent).toBe(
      'skipped2.roll $secretneeds the account control plane, which this target does not offer',
    )
  })
})
