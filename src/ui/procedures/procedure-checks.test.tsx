import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { control } from '../shared/api'
import { renderWithService } from '../../testing/render'
import type { ProcRecord } from './api'
import ProceduresView from './procedures-view'

configure({ defaultHidden: true })

const stored = (baseUrl: string) => control<ProcRecord[]>(baseUrl, 'GET', 'procedures')
const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } })

describe('the procedure editor', { timeout: 20_000 }, () => {
  it('refuses a call to an endpoint the engine does not have, and says what was meant', async () => {
    const { service } = await renderWithService(<ProceduresView />)
    await screen.findByText(/No stored procedures yet/)
    type('Name (called at lib.<name>)', 'flip')
    type(
      'Procedure (JSON tuples)',
      '["{}", ["()", "type.string.revers"], ["()", "lib.later", [">>", ["%%", ["()", "no.call"]]]]]',
    )
    await waitFor(() =>
      expect(screen.getByText(/is not an endpoint/).textContent).toBe(
        '“type.string.revers” is not an endpoint of the engine: a call to it answers 404 when the procedure runs. Did you mean “type.string.reverse”?',
      ),
    )
    fireEvent.click(screen.getByRole('button', { name: 'Create procedure' }))
    expect(await stored(service.baseUrl)).toEqual([])
    // A stored procedure may be created later, and a literal is data: neither is refused.
    type('Procedure (JSON tuples)', '["{}", ["()", "type.string.reverse"], ["()", "lib.later"]]')
    fireEvent.click(screen.getByRole('button', { name: 'Create procedure' }))
    await waitFor(async () => expect((await stored(service.baseUrl)).length).toBe(1))
  })

  it('says "Created" until the procedure is updated or deleted', async () => {
    await renderWithService(<ProceduresView />)
    await screen.findByText(/No stored procedures yet/)
    fireEvent.click(screen.getByRole('button', { name: 'Start from this example' }))
    type('Name (called at lib.<name>)', 'oof')
    fireEvent.click(screen.getByRole('button', { name: 'Create procedure' }))
    expect((await screen.findByRole('status')).textContent).toMatch(/^Created lib\.oof\./)
    const card = within(await screen.findByRole('article', { name: 'lib.oof' }))
    fireEvent.click(card.getByRole('button', { name: 'Edit lib.oof' }))
    fireEvent.change(card.getByLabelText('New tuples of lib.oof'), {
      target: { value: '["{}", ["()", "type.string.upcase"]]' },
    })
    fireEvent.click(card.getByRole('button', { name: 'Save procedure' }))
    await waitFor(() => expect(screen.queryByText(/^Created lib\.oof/)).toBeNull())

    type('Procedure (JSON tuples)', '["{}", ["()", "type.string.reverse"]]')
    type('Name (called at lib.<name>)', 'again')
    fireEvent.click(screen.getByRole('button', { name: 'Create procedure' }))
    expect((await screen.findByRole('status')).textContent).toMatch(/^Created lib\.again\./)
    const again = within(await screen.findByRole('article', { name: 'lib.again' }))
    fireEvent.click(again.getByRole('button', { name: 'Delete lib.again' }))
    fireEvent.click(again.getByRole('button', { name: 'Delete procedure' }))
    await waitFor(() => expect(screen.queryByText(/^Created lib\.again/)).toBeNull())
  })
})
