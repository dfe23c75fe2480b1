import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithService } from '../../testing/render'
import AuthorizationsView from './authorizations-view'

const item = (name: string) => screen.getByRole('treeitem', { name })
const press = (key: string) => fireEvent.keyDown(document.activeElement!, { key })
const focused = () => document.activeElement?.getAttribute('aria-label')

describe('the composer with the keyboard', { timeout: 30_000 }, () => {
  it('walks the catalogue as a tree: one Tab stop, arrows move, Right opens, Space grants', async () => {
    await renderWithService(<AuthorizationsView />)
    const tree = await screen.findByRole('tree', { name: 'Catalogue' }, { timeout: 5000 })
    const roots = within(tree).getAllByRole('treeitem')
    expect(roots.map((root) => root.getAttribute('aria-label'))).toEqual([
      'auth',
      'core',
      'enum',
      'keyv',
      'service',
      'type',
      'lib',
    ])
    // One Tab stop for the whole tree.
    expect(roots.filter((root) => root.tabIndex === 0)).toEqual([roots[0]])
    roots[0]!.focus()
    press('ArrowDown')
    expect(focused()).toBe('core')
    expect(item('core').getAttribute('aria-expanded')).toBe('false')
    press('ArrowRight')
    expect(item('core').getAttribute('aria-expanded')).toBe('true')
    press('ArrowRight')
    await waitFor(() => expect(focused()).toBe('core.compile'))
    press(' ')
    expect(item('core.compile').getAttribute('aria-checked')).toBe('true')
    expect(screen.getByTestId('snippet-http').textContent).toContain('["core.compile"]')
    expect(
      within(tree)
        .getAllByRole('treeitem')
        .filter((node) => node.tabIndex === 0),
    ).toEqual([item('core.compile')])
    press('ArrowLeft')
    await waitFor(() => expect(focused()).toBe('core'))
    press('ArrowLeft')
    expect(item('core').getAttribute('aria-expanded')).toBe('false')
    press('End')
    await waitFor(() => expect(focused()).toBe('lib'))
    press('Home')
    await waitFor(() => expect(focused()).toBe('auth'))
    // A package granted covers what is below it: its items say so and cannot be picked.
    press('ArrowDown')
    press('Enter')
    press('ArrowRight')
    expect(item('core.ping').getAttribute('aria-checked')).toBe('true')
    expect(item('core.ping').getAttribute('aria-disabled')).toBe('true')
  })

  it('gives the focus to the answer after Create authorization, not to the page', async () => {
    await renderWithService(<AuthorizationsView />)
    fireEvent.click(
      (await screen.findByRole('treeitem', { name: 'type' })).querySelector('.tree-row')!,
    )
    const create = screen.getByRole('button', { name: 'Create authorization' })
    create.focus()
    fireEvent.click(create)
    const answer = await screen.findByTestId('send-answer', {}, { timeout: 5000 })
    await waitFor(() => expect(document.activeElement).toBe(answer))
    expect(within(answer).getByRole('link', { name: 'use it in the console' })).toBeTruthy()
  })
})
