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
    const now = await service.now()
    fireEvent.change(await screen.findByLabelText('Roll at (UTC, 24 h)'), {
      target: { value: new Date((now + 7200) * 1000).toISOString().slice(0, 19) },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Roll at…' }))
    // Two hours ahead, less the moments since the clock was read.
    const next = await screen.findByRole('button', {
      name: new RegExp(`^Next: secret ${secret!.id} rolls \\(in (2 h|1 h 59 min)\\)$`),
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
