import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import SecretsView from '../account/secrets-view'
import { renderWithService } from '../../testing/render'
import { ClockBar } from './clock-bar'

const realNow = () => Date.now() / 1000

describe('ClockBar', () => {
  it('shows the virtual time and moves it by a step or by any number of seconds', async () => {
    const { service } = await renderWithService(<ClockBar />)
    await waitFor(() => expect(screen.getByTestId('clock-now').textContent).toMatch(/ UTC$/))
    fireEvent.click(screen.getByRole('button', { name: 'Advance 1 day' }))
    await waitFor(async () => expect((await service.now()) - realNow()).toBeGreaterThan(86_000))
    fireEvent.change(screen.getByLabelText('Advance by (seconds)'), { target: { value: '3600' } })
    // The bar takes the next move once it has read the account again.
    const advance = screen.getByRole('button', { name: 'Advance clock' })
    await waitFor(() => expect(advance).toHaveProperty('disabled', false))
    fireEvent.click(advance)
    await waitFor(async () => expect((await service.now()) - realNow()).toBeGreaterThan(89_000))
    // The bar shows it too, to the second, ticking with real time.
    await waitFor(() => {
      const shown = Date.parse(screen.getByTestId('clock-now').textContent!.replace(' UTC', 'Z'))
      expect(Math.abs(shown / 1000 - (realNow() + 90_000))).toBeLessThan(3)
    })
  })

  it('jumps to the next scheduled roll, which then takes effect', async () => {
    const { service } = await renderWithService(
      <>
        <ClockBar />
        <SecretsView />
      </>,
    )
    expect(await screen.findByRole('button', { name: 'Nothing scheduled' })).toBeTruthy()
    const [secret] = await service.listSecrets()
    fireEvent.change(await screen.findByLabelText('Seconds from now'), {
      target: { value: '7200' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Roll at…' }))
    const next = await screen.findByRole('button', {
      name: `Next: secret ${secret!.id} rolls (in 2 h)`,
    })
    fireEvent.click(next)
    await waitFor(() =>
      expect(screen.getAllByTestId('secret-state').map((state) => state.textContent)).toEqual([
        'expired',
        'active',
      ]),
    )
    expect((await service.listSecrets())[0]!.state).toBe('expired')
    expect(await screen.findByRole('button', { name: 'Nothing scheduled' })).toBeTruthy()
  })
})
