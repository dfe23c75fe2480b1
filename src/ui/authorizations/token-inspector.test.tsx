import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithService } from '../../testing/render'
import { TokenInspector } from './token-inspector'

async function authorize(baseUrl: string, secret: string) {
  const response = await fetch(`${baseUrl}/auth/create?abilities=core`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, accept: 'text/plain' },
  })
  return response.text()
}

const inspect = (text: string) => {
  fireEvent.change(screen.getByLabelText('Token'), { target: { value: text } })
  fireEvent.click(screen.getByRole('button', { name: 'Inspect' }))
}

describe('the token inspector', { timeout: 20_000 }, () => {
  it('reads a pasted "Bearer <token>" as the token', async () => {
    const { service } = await renderWithService(<TokenInspector />)
    const token = await authorize(service.baseUrl, service.secret)
    inspect(`Bearer ${token}`)
    await waitFor(() => expect(screen.getByTestId('inspect-state').textContent).toBe('usable'))
    expect(screen.getByTestId('inspect-scheme').textContent).toMatch(/without its Bearer scheme/)
  })

  it('shows what a token that fails verification claims, then why it failed', async () => {
    const { service } = await renderWithService(<TokenInspector />)
    const token = await authorize(service.baseUrl, service.secret)
    const last = token.at(-1) === 'A' ? 'B' : 'A'
    inspect(`${token.slice(0, -1)}${last}`)
    const claims = await screen.findByTestId('inspect-claims')
    expect(claims.textContent).toMatch(/not verified/)
    expect(claims.querySelector('pre')!.textContent).toContain('"core"')
    const state = screen.getByTestId('inspect-state')
    expect(state.textContent).toBe('invalid')
    // The claims come first, the reason after them.
    expect(claims.compareDocumentPosition(state) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(screen.getByText(/Its signature does not verify/)).toBeTruthy()
  })
})
