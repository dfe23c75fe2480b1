import { readFileSync } from 'node:fs'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import { formatContract } from '../../conformance/contract/format'
import { parseCaseFile, readCaseFile } from '../../conformance/cases'
import { verifyContracts } from '../../conformance/contract/verify'
import { handleTarget } from '../../conformance/targets'
import { createReplayHandlers } from '../../msw/replays'
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

// The notes example's contract, as the kit recorded it (the tests run from the project's root).
const notes = () => readFileSync('examples/notes/contracts/notes.json', 'utf8')

afterEach(() => vi.restoreAllMocks())

/** A request from the test itself, as code in the page sends it. */
function send(service: Service, name: string, body: string, token = service.secret, query = '') {
  return fetch(`${service.baseUrl}/${name.replaceAll('.', '/')}${query ? `?${query}` : ''}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
    body,
  })
}

async function authorize(service: Service, abilities: string[]): Promise<string> {
  const response = await fetch(`${service.baseUrl}/auth/create`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${service.secret}`,
      'content-type': `application/vnd.${service.serviceName}+json`,
      accept: 'text/plain',
    },
    body: JSON.stringify([
      ['$$', 'abilities', abilities],
      ['$$', 'ttl', 600],
    ]),
  })
  expect(response.status).toBe(200)
  return response.text()
}

/** Catches the files the view downloads (jsdom makes no object URLs and downloads nothing). */
function catchDownloads() {
  const files: Array<{ name: string; blob: Blob }> = []
  const { createObjectURL, revokeObjectURL } = URL
  const blobs: Blob[] = []
  URL.createObjectURL = vi.fn((blob: Blob) => (blobs.push(blob), `blob:${blobs.length}`))
  URL.revokeObjectURL = vi.fn()
  onTestFinished(() => {
    URL.createObjectURL = createObjectURL
    URL.revokeObjectURL = revokeObjectURL
  })
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    files.push({ name: this.download, blob: blobs[Number(this.href.split(':').pop()) - 1]! })
  })
  return files
}

const rows = () => screen.getAllByTestId('exchange-row')
const chooseBox = (row: HTMLElement) => within(row).getByRole('checkbox')

/** Opens `text` as the file `name` through the log's file picker. */
async function openFile(name: string, text: string | Blob) {
  const file = new File([text], name, { type: 'application/json' })
  fireEvent.change(screen.getByLabelText('Contract file to open'), { target: { files: [file] } })
  const panel = await screen.findByTestId('contract')
  await waitFor(() => expect(panel.getAttribute('aria-busy')).toBe('false'))
  return panel
}

describe('Save as contract', { timeout: 20_000 }, () => {
  it('saves the exchanges chosen (kept in the URL) as the command line writes a contract, without a token', async () => {
    const { service } = await renderWithService(<Followed />)
    const token = await authorize(service, ['keyv.get?bucket=users&prefix=alice/'])
    expect((await send(service, 'keyv.get', 'bob/1', token, 'bucket=users')).status).toBe(401)
    expect(await (await send(service, 'type.string.reverse', 'abc')).text()).toBe('cba')
    await send(service, 'core.echo', 'not chosen')
    await waitFor(() => expect(rows()).toHaveLength(4), { timeout: 3000 })

    const save = screen.getByRole('button', { name: 'Save as contract…' }) as HTMLButtonElement
    expect(save.disabled).toBe(true)
    // The three oldest; the newest (core.echo) is left out.
    for (const row of rows().slice(1)) fireEvent.click(chooseBox(row))
    expect(window.location.hash).toBe('#/log?chosen=1-3')
    expect(screen.getByRole('status').textContent).toMatch(/^4 exchanges, 3 chosen;/)
    fireEvent.click(save)
    fireEvent.change(screen.getByLabelText('Case name'), {
      target: { value: 'Reads outside its limit' },
    })
    const files = catchDownloads()
    fireEvent.click(screen.getByRole('button', { name: 'Download contract' }))
    const saved = await screen.findByText(/^Saved/, {}, { timeout: 3000 })
    expect(saved.textContent).toBe(
      'Saved reads-outside-its-limit.json: the case “Reads outside its limit”, 3 steps.',
    )

    expect(files.map((file) => file.name)).toEqual(['reads-outside-its-limit.json'])
    const text = await files[0]!.blob.text()
    expect(text).not.toContain(service.secret)
    expect(text).not.toContain(token)
    const file = readCaseFile('saved.json', text)
    expect(formatContract(file)).toBe(text)
    const [contract] = file.cases
    expect(contract!.name).toBe('Reads outside its limit')
    expect(contract!.steps.map((step) => ('call' in step ? step.call : step))).toEqual([
      'auth.create',
      'keyv.get',
      'type.string.reverse',
    ])
    // What Node's runner says of it, on an engine of its own named otherwise.
    const [result] = await verifyContracts(
      handleTarget({ serviceName: 'acme' }),
      parseCaseFile('saved.json', text),
    )
    expect(result!.status).toBe('passed')

    fireEvent.click(screen.getByRole('button', { name: 'Choose none' }))
    expect(window.location.hash).toBe('#/log')
  })

  it('adds the case to the contract open in the page, by name, under its file name', async () => {
    const { service } = await renderWithService(<Followed />)
    await send(service, 'core.echo', 'hello')
    await waitFor(() => expect(rows()).toHaveLength(1), { timeout: 3000 })
    await openFile('notes.json', notes())
    const before = readCaseFile('notes.json', notes()).cases.map((c) => c.name)

    fireEvent.click(chooseBox(rows()[0]!))
    fireEvent.click(screen.getByRole('button', { name: 'Save as contract…' }))
    fireEvent.change(screen.getByLabelText('Case name'), { target: { value: 'echoes' } })
    fireEvent.click(screen.getByLabelText(/^Added to notes\.json/))
    const files = catchDownloads()
    const download = screen.getByRole('button', { name: 'Download contract' })
    fireEvent.click(download)
    expect((await screen.findByText(/^Saved/, {}, { timeout: 3000 })).textContent).toMatch(
      /^Saved notes\.json: the case “echoes”, 1 step\.$/,
    )
    fireEvent.click(download)
    await waitFor(() => expect(files).toHaveLength(2))

    expect(files.map((file) => file.name)).toEqual(['notes.json', 'notes.json'])
    const [once, twice] = await Promise.all(files.map((file) => file.blob.text()))
    const names = readCaseFile('notes.json', once!).cases.map((c) => c.name)
    expect(names).toEqual([...before, 'echoes'].sort())
    expect(twice).toBe(once)
  })

  it('says why nothing could be recorded', async () => {
    const { service } = await renderWithService(<Followed />)
    service.fault({ status: 503, endpoint: 'core' })
    expect((await send(service, 'core.ping', '')).status).toBe(503)
    await waitFor(() => expect(rows()).toHaveLength(1), { timeout: 3000 })
    fireEvent.click(chooseBox(rows()[0]!))
    fireEvent.click(screen.getByRole('button', { name: 'Save as contract…' }))
    const files = catchDownloads()
    fireEvent.click(screen.getByRole('button', { name: 'Download contract' }))
    const alert = await screen.findByText(/^Not saved:/, {}, { timeout: 3000 })
    expect(alert.textContent).toMatch(
      /^Not saved: nothing to record for "exchanges recorded in the playground": .*core\.ping\) left out: its answer was a fault injected/,
    )
    expect(files).toEqual([])
  })
})

describe('Open contract', { timeout: 20_000 }, () => {
  it('says why a file is not a contract, with the JSON path, and the log stays', async () => {
    await renderWithService(<Followed />)
    const cases = [
      ['broken.json', '{"cases": [', 'broken.json: not valid JSON ('],
      [
        'page.har',
        '{"log": {"entries": []}}',
        "page.har: /log must have required property 'version': not a HAR as browsers export it",
      ],
      ['cut.har', '{"log": {"version": "1.2", "entries": [', 'cut.har is not JSON ('],
      [
        'old.har',
        '{"log": {"version": "0.9", "entries": []}}',
        'old.har: /log/version is "0.9"; import-har reads HAR 1.2 (or 1.1)',
      ],
      [
        'steps.json',
        JSON.stringify({ description: 'd', cases: [{ name: 'n', steps: 'none' }] }),
        'steps.json: /cases/0/steps (case "n", in its steps) must be array',
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

  it('replays a contract on a throwaway account, each step passed or differing with the request and the answer', async () => {
    const { service } = await renderWithService(<Followed />)
    withThrowaways(service)
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

    // Nothing to ask: the page's account is not the one replayed on.
    expect(within(panel).getByTestId('replay-where').textContent).toMatch(/throwaway account/)
    const [secretBefore] = await service.listSecrets()
    fireEvent.click(within(panel).getByRole('button', { name: 'Replay' }))
    const summary = await within(panel).findByTestId('contract-summary', {}, { timeout: 5000 })
    expect(summary.textContent).toBe(
      'Replayed 2 cases on a throwaway account: 1 passed, 1 differs, 0 skipped.',
    )
    expect(listed().map((c) => c.dataset.status)).toEqual(['passed', 'failed'])
    const steps = within(listed()[1]!).getAllByTestId('contract-step')
    expect(steps.map((step) => step.dataset.status)).toEqual(['passed', 'failed'])
    expect(within(steps[1]!).getByTestId('step-differences').textContent).toBe(
      'expected result "xyz", got "cba"',
    )
    const exchange = within(steps[1]!).getByLabelText('Step 2: the request and the answer')
    expect(exchange.textContent).toMatch(
      new RegExp(`POST ${service.baseUrl}/_replay/run_[0-9a-f-]+/type/string/reverse`),
    )
    expect(exchange.textContent).toContain('authorization: Bearer $secret')
    expect(exchange.textContent).toContain('answered 200')
    expect(within(listed()[1]!).getByText(/^step 2 \(type\.string\.reverse\): expected result/))

    // The page's account is as it was: its key, its secret, its log.
    const buckets = await fetch(`${service.baseUrl}/_account/buckets`)
    expect(await buckets.json()).toEqual([{ bucket: 'b', keys: 1 }])
    expect(await service.listSecrets()).toEqual([secretBefore])
    const logged = (await (await fetch(`${service.baseUrl}/_account/exchanges`)).json()) as {
      exchanges: Array<{ trace: { endpoint: string } }>
    }
    expect(logged.exchanges.map((record) => record.trace.endpoint)).toEqual(['keyv.set'])
  })

  it('keeps the contract and its replay when the view is left and opened again', async () => {
    const { service } = await renderWithService(<Leaving />)
    withThrowaways(service)
    const text = JSON.stringify({
      description: 'One case.',
      cases: [{ name: 'pings', steps: [{ call: 'core.ping', expect: { status: 200 } }] }],
    })
    const panel = await openFile('one.json', text)
    fireEvent.click(within(panel).getByRole('button', { name: 'Replay' }))
    await within(panel).findByTestId('contract-summary', {}, { timeout: 5000 })
    fireEvent.click(screen.getByRole('button', { name: 'Leave the view' }))
    expect(screen.queryByTestId('contract')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Open the view' }))
    const again = screen.getByTestId('contract')
    expect(within(again).getByTestId('contract-summary').textContent).toContain('1 passed')
    expect(within(again).getByRole('button', { name: 'Replay again' })).toBeTruthy()
  })
})

/** The page's throwaway accounts, as its service worker answers them (src/msw/playground.ts). */
function withThrowaways(service: Service) {
  service.server.use(
    ...createReplayHandlers({
      baseUrl: service.baseUrl,
      serviceName: service.serviceName,
      exchangeLog: 0,
    }),
  )
}

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
