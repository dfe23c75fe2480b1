import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { control } from '../shared/api'
import { renderWithService } from '../../testing/render'
import type { ProcRecord } from './api'
import ProceduresView from './procedures-view'

// Role queries skip jsdom's costly visibility checks: nothing in this view is hidden by CSS.
configure({ defaultHidden: true })

const stored = (baseUrl: string) => control<ProcRecord[]>(baseUrl, 'GET', 'procedures')

const type = (
  label: string,
  value: string,
  scope: Pick<typeof screen, 'getByLabelText'> = screen,
) => fireEvent.change(scope.getByLabelText(label), { target: { value } })

async function card(name: string) {
  const article = await screen.findByRole('article', { name: `lib.${name}` })
  return within(article)
}

// Generous: these run on machines shared with other suites.
describe('ProceduresView', { timeout: 20_000 }, () => {
  it('starts from an example, checks the name and tuples in the form, then creates', async () => {
    const { service } = await renderWithService(<ProceduresView />)
    await screen.findByText(/No stored procedures yet/)
    const editor = screen.getByLabelText('Procedure (JSON tuples)') as HTMLTextAreaElement
    fireEvent.click(screen.getByRole('button', { name: 'Start from this example' }))
    expect(JSON.parse(editor.value)).toEqual([
      '{}',
      ['()', 'type.string.reverse'],
      ['()', 'type.string.capitalize'],
    ])

    type('Procedure (JSON tuples)', '["{}", ["()", "type.string.reverse"]')
    expect(editor.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText(/^Line 1, column 37: expected "," or "]", found the end/)).toBeTruthy()
    type('Name (called at lib.<name>)', '1flip')
    expect(screen.getByText('A name starts with a letter.')).toBeTruthy()
    type('Name (called at lib.<name>)', 'text.flip')
    fireEvent.click(screen.getByRole('button', { name: 'Create procedure' }))
    expect(document.activeElement).toBe(editor)

    type('Procedure (JSON tuples)', '{"steps": ["type.string.reverse"]}')
    expect(
      screen.getByText('A procedure is a ["{}", …] composition or a ["()", "endpoint", …] call.'),
    ).toBeTruthy()
    type('Procedure (JSON tuples)', '["{}", "type.string.reverse"]')
    expect(screen.getByText(/^Step 1 of the composition must be/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Create procedure' }))
    expect(await stored(service.baseUrl)).toEqual([])

    type('Procedure (JSON tuples)', '["{}", ["()", "type.string.reverse"]]')
    fireEvent.click(screen.getByRole('button', { name: 'Create procedure' }))
    expect((await screen.findByRole('status')).textContent).toMatch(
      /^Created lib\.text\.flip\. Next:/,
    )
    const flip = await card('text.flip')
    expect(JSON.parse(flip.getByTestId('proc-tuples').textContent!)).toEqual([
      '{}',
      ['()', 'type.string.reverse'],
    ])
    expect(flip.getByText(/^Created \d{4}-\d\d-\d\d/)).toBeTruthy()
    expect(flip.getByRole('link', { name: 'Open in console' }).getAttribute('href')).toMatch(
      /^#\/console\?token=secret%3A.+&endpoint=lib.text.flip$/,
    )
    expect((await stored(service.baseUrl)).map((proc) => proc.name)).toEqual(['text.flip'])
  })

  it('calls a procedure and shows its answer, updates it, and deletes it', async () => {
    await renderWithService(<ProceduresView />)
    await screen.findByText(/No stored procedures yet/)
    fireEvent.click(screen.getByRole('button', { name: 'Start from this example' }))
    type('Name (called at lib.<name>)', 'oof')
    fireEvent.click(screen.getByRole('button', { name: 'Create procedure' }))
    let oof = await card('oof')

    fireEvent.click(oof.getByRole('button', { name: 'Call lib.oof' }))
    type('Input (JSON or text; empty for none)', '"foo"', oof)
    fireEvent.click(oof.getByRole('button', { name: 'Send' }))
    expect((await oof.findByTestId('proc-answer')).textContent).toBe('"Oof"')
    // Text that is not JSON is sent as it is, and said so.
    type('Input (JSON or text; empty for none)', 'bar', oof)
    expect(oof.getByTestId('sent-as-text').textContent).toBe(
      'Not JSON: sent as the text it is, "bar".',
    )
    fireEvent.click(oof.getByRole('button', { name: 'Send' }))
    await waitFor(() => expect(oof.getByTestId('proc-answer').textContent).toBe('"Rab"'))

    fireEvent.click(oof.getByRole('button', { name: 'Edit lib.oof' }))
    const editor = oof.getByLabelText('New tuples of lib.oof')
    expect(document.activeElement).toBe(editor)
    fireEvent.change(editor, {
      target: {
        value:
          '["{}", ["()", "type.string.upcase"], ["()", "type.string.append", ["$$", "value", ["@@", "mark", {"default": "!"}]]]]',
      },
    })
    fireEvent.click(oof.getByRole('button', { name: 'Save procedure' }))
    await waitFor(() => expect(oof.getByTestId('proc-tuples').textContent).toMatch(/upcase/))
    oof = await card('oof')
    expect(oof.getByText(/· updated/)).toBeTruthy()

    fireEvent.click(oof.getByRole('button', { name: 'Call lib.oof' }))
    type('Input (JSON or text; empty for none)', '"foo"', oof)
    type('Arguments (a JSON object; empty for none)', '["mark"]', oof)
    expect(oof.getByText('Arguments are one JSON object: {"name": value, …}.')).toBeTruthy()
    expect(oof.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', true)
    type('Arguments (a JSON object; empty for none)', '{"mark": "?"}', oof)
    fireEvent.click(oof.getByRole('button', { name: 'Send' }))
    expect((await oof.findByTestId('proc-answer')).textContent).toBe('"FOO?"')

    fireEvent.click(oof.getByRole('button', { name: 'Delete lib.oof' }))
    expect(document.activeElement).toBe(oof.getByRole('button', { name: 'Delete procedure' }))
    fireEvent.click(oof.getByRole('button', { name: 'Delete procedure' }))
    await screen.findByText(/No stored procedures yet/)
  })

  it('calls a procedure in the body format chosen', async () => {
    const { service } = await renderWithService(<ProceduresView />)
    await screen.findByText(/No stored procedures yet/)
    fireEvent.click(screen.getByRole('button', { name: 'Start from this example' }))
    type('Name (called at lib.<name>)', 'oof')
    fireEvent.click(screen.getByRole('button', { name: 'Create procedure' }))
    const oof = await card('oof')
    fireEvent.click(oof.getByRole('button', { name: 'Call lib.oof' }))
    const sent = async () => {
      const response = await fetch(`${service.baseUrl}/_account/exchanges`)
      const { exchanges } = (await response.json()) as {
        exchanges: Array<{ id: number; request: { url: string; headers: Array<[string, string]> } }>
      }
      const { request } = exchanges
        .filter((e) => e.request.url.endsWith('/lib/oof'))
        .sort((a, b) => b.id - a.id)[0]!
      return new Map(request.headers).get('content-type')
    }
    for (const [format, media, input, answer] of [
      ['text', 'text/plain', 'bar', '"Rab"'],
      ['json', 'application/json', 'baz', '"Zab"'],
      ['msgpack', 'application/vnd.service+msgpack', 'qux', '"Xuq"'],
    ] as const) {
      fireEvent.change(oof.getByLabelText('Body format'), { target: { value: format } })
      type('Input (JSON or text; empty for none)', input, oof)
      fireEvent.click(oof.getByRole('button', { name: 'Send' }))
      await waitFor(() => expect(oof.queryByTestId('proc-answer')?.textContent).toBe(answer))
      expect(await sent()).toBe(media)
    }
  })

  it('shows the engine’s 409 and 400 readably', async () => {
    await renderWithService(<ProceduresView />)
    await screen.findByText(/No stored procedures yet/)
    for (const done of [true, false]) {
      type('Name (called at lib.<name>)', 'ping')
      type('Procedure (JSON tuples)', '["()", "core.ping"]')
      fireEvent.click(screen.getByRole('button', { name: 'Create procedure' }))
      if (done) await screen.findByRole('status')
    }
    expect((await screen.findByRole('alert')).textContent).toBe(
      "409 Conflict: stored procedure `lib.ping' already exists; use service.update",
    )
    const ping = await card('ping')
    fireEvent.click(ping.getByRole('button', { name: 'Edit lib.ping' }))
    fireEvent.change(ping.getByLabelText('New tuples of lib.ping'), {
      target: { value: '["()", "core.ping", ["<<", 1]]' },
    })
    expect(ping.getByText(/^Member 3 of the call must be/)).toBeTruthy()
    fireEvent.change(ping.getByLabelText('New tuples of lib.ping'), {
      target: { value: '["()", "core.ping", [">>", ["@@"]]]' },
    })
    fireEvent.click(ping.getByRole('button', { name: 'Save procedure' }))
    expect((await ping.findByRole('alert')).textContent).toMatch(
      /^400 Bad Request: a "@@" reference/,
    )
  })
})
