import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { control } from '../shared/api'
import { renderWithService } from '../../testing/render'
import type { ProcRecord } from './api'
import ProceduresView from './procedures-view'

configure({ defaultHidden: true })

const stored = async (baseUrl: string) =>
  (await control<ProcRecord[]>(baseUrl, 'GET', 'procedures')).map((record) => record.name)

const program = () => screen.getByLabelText('Program (composer language)') as HTMLTextAreaElement
const write = (code: string) => fireEvent.change(program(), { target: { value: code } })

async function open() {
  const view = await renderWithService(<ProceduresView />)
  await screen.findByText(/No stored procedures yet/)
  fireEvent.click(screen.getByRole('button', { name: 'Program (composer language)' }))
  return view
}

describe('ProceduresView with a program', { timeout: 20_000 }, () => {
  it('compiles as it is typed: a mistake at its line and column, then the tuples', async () => {
    await open()
    write('proc(name: "text.flip") {\n  type.string.reverse(Time.now)\n}')
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toMatch(
      /^Line 2, column 23: expected an expression, found `Time': constants are outside the language/,
    )
    expect(program().getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByTestId('program-problem-line').textContent).toBe(
      '  type.string.reverse(Time.now)\n                      ^',
    )
    fireEvent.click(screen.getByRole('button', { name: 'Go to line 2, column 23' }))
    expect(document.activeElement).toBe(program())
    expect(program().selectionStart).toBe(program().value.indexOf('Time'))
    expect(screen.getByRole('button', { name: 'Deploy' })).toHaveProperty('disabled', true)

    write('exec { core.echo("x") }\nproc(name: "text.flip") {\n  type.string.reverse\n}')
    await waitFor(() => expect(screen.getAllByTestId('program-tuples')).toHaveLength(2))
    const [exec, proc] = screen.getAllByTestId('program-tuples')
    expect(JSON.parse(exec!.textContent!)).toEqual(['{}', ['()', 'core.echo', ['>>', ['%%', 'x']]]])
    expect(JSON.parse(proc!.textContent!)).toEqual([
      '{}',
      [
        '()',
        'service.deploy',
        ['$$', 'name', ['%%', 'text.flip']],
        ['$$', 'proc', ['{}', ['()', 'type.string.reverse']]],
      ],
    ])
    expect(program().getAttribute('aria-invalid')).toBe(null)
    expect(screen.getByText(/^Compiled: 2 blocks/)).toBeTruthy()
  })

  it('refuses to deploy a procedure that calls an endpoint that does not exist', async () => {
    const { service } = await open()
    write('proc(name: "text.flip") {\n  type.string.revers\n}')
    expect(
      (await screen.findByTestId('unknown-endpoint', {}, { timeout: 10_000 })).textContent,
    ).toBe(
      'Not deployed: “type.string.revers” is not an endpoint of the engine: a call to it answers 404 when the procedure runs. Did you mean “type.string.reverse”?',
    )
    fireEvent.click(screen.getByRole('button', { name: 'Deploy' }))
    expect(screen.getByRole('button', { name: 'Deploy' })).toHaveProperty('disabled', true)
    expect(await stored(service.baseUrl)).toEqual([])
  })

  it('deploys to the dev stage, shows the stages, and releases', async () => {
    const { service } = await open()
    write('exec { core.echo("only") }')
    await screen.findByText(/Nothing to deploy/)
    expect(screen.getByRole('button', { name: 'Deploy' })).toHaveProperty('disabled', true)

    write('')
    fireEvent.click(screen.getByRole('button', { name: 'Start from an example program' }))
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Deploy' })).toHaveProperty('disabled', false),
    )
    fireEvent.click(screen.getByRole('button', { name: 'Deploy' }))
    const host = new URL(service.baseUrl).host
    const [result] = await screen.findAllByTestId('deploy-result')
    expect(result!.textContent).toBe(`[proc] text.shout: ok${host}/lib/text.shout:dev`)

    const card = within(await screen.findByRole('article', { name: 'lib.text.shout' }))
    expect(card.getByRole('list', { name: 'Stages of lib.text.shout' }).textContent).toBe(
      'dev stage',
    )
    expect(card.getByText(/Not released/)).toBeTruthy()
    expect(JSON.parse(card.getByTestId('proc-dev-tuples').textContent!)[0]).toBe('{}')
    expect(await stored(service.baseUrl)).toEqual(['text.shout:dev'])

    fireEvent.click(card.getByRole('button', { name: 'Call lib.text.shout' }))
    fireEvent.change(card.getByLabelText('Input (JSON or text; empty for none)'), {
      target: { value: '"hey"' },
    })
    fireEvent.click(card.getByRole('button', { name: 'Send' }))
    expect((await card.findByTestId('proc-answer')).textContent).toBe('"HEY!"')

    fireEvent.click(card.getByRole('button', { name: 'Release the dev stage of lib.text.shout' }))
    await waitFor(async () => expect(await stored(service.baseUrl)).toEqual(['text.shout']))
    const released = within(await screen.findByRole('article', { name: 'lib.text.shout' }))
    await waitFor(() =>
      expect(released.getByRole('list', { name: 'Stages of lib.text.shout' }).textContent).toBe(
        'released',
      ),
    )
  })

  it('passes -arg values and releases with -release', async () => {
    const { service } = await open()
    write('proc(name: :name, release: arg(:live)) {\n  core.echo\n}')
    fireEvent.change(screen.getByLabelText('Arguments (name=value, one a line, as -arg)'), {
      target: { value: 'name=from.args\nlive=false' },
    })
    fireEvent.click(screen.getByRole('checkbox'))
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Deploy' })).toHaveProperty('disabled', false),
    )
    fireEvent.click(screen.getByRole('button', { name: 'Deploy' }))
    const [result] = await screen.findAllByTestId('deploy-result')
    expect(result!.textContent).toBe(
      `[proc] from.args: ok${new URL(service.baseUrl).host}/lib/from.args`,
    )
    expect(await stored(service.baseUrl)).toEqual(['from.args'])
  })
})
