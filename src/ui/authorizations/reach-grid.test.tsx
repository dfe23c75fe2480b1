import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createManualClock, type ReachReport } from '../../engine'
import { renderWithService } from '../../testing/render'
import AuthorizationsView from './authorizations-view'
import { TokenInspector } from './token-inspector'

type Service = Awaited<ReturnType<typeof renderWithService>>['service']

const inspect = (text: string) => {
  fireEvent.change(screen.getByLabelText('Token'), { target: { value: text } })
  fireEvent.click(screen.getByRole('button', { name: 'Inspect' }))
}

const row = (endpoint: string) =>
  screen
    .getAllByTestId('reach-endpoint')
    .find((element) => element.getAttribute('data-endpoint') === endpoint)!

async function storeProcedures(service: Service, count: number) {
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${service.baseUrl}/${service.serviceName}/create`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${service.secret}`,
        'content-type': `application/vnd.${service.serviceName}+json`,
      },
      body: JSON.stringify([
        ['$$', 'name', `p${String(i).padStart(4, '0')}`],
        ['$$', 'proc', ['{}', ['()', 'core.ping']]],
      ]),
    })
    expect(response.status).toBe(200)
  }
}

describe('What can this token do?', { timeout: 60_000 }, () => {
  it('marks every endpoint as the engine decides it, with the key-value regions and when it stops', async () => {
    // A clock that stands still: the token is read at the moment it was minted, however slow.
    const { service } = await renderWithService(<TokenInspector />, { clock: createManualClock() })
    const token = await service.authorize(
      [
        'type.string',
        'keyv.get?bucket=users&prefix=alice/',
        'keyv.scan?bucket=users&prefix=alice/',
      ],
      { ttl: 3600 },
    )
    inspect(token)
    const grid = await screen.findByTestId('reach-count', undefined, { timeout: 10_000 })
    expect(grid.textContent).toMatch(/It can call 9 of the \d+ endpoints/)
    // Each row is the engine's own decision.
    const report = (await service.reach(token)) as ReachReport
    const rows = screen.getAllByTestId('reach-endpoint')
    expect(rows).toHaveLength(report.endpoints.length)
    for (const endpoint of report.endpoints) {
      expect(row(endpoint.endpoint).getAttribute('data-decision'), endpoint.endpoint).toBe(
        endpoint.decision,
      )
    }
    expect(row('type.string.reverse').textContent).toContain('by type.string')
    // A refused one says what would let it in, narrowest first, and links to the composer.
    const refused = row('type.number.add')
    expect(refused.textContent).toMatch(/needs type\.number\.add \(or type\.number, type\)/)
    // The link composes this token again, with the ability added and all else as it is.
    const href = within(refused)
      .getByRole('link', { name: 'type.number.add' })
      .getAttribute('href')!
    const fix = new URLSearchParams(href.split('?')[1])
    expect(fix.getAll('ability')).toEqual([
      'type.string',
      'keyv.get?bucket=users&prefix=alice/',
      'keyv.scan?bucket=users&prefix=alice/',
      'type.number.add',
    ])
    expect(fix.get('expiry')).toBe(
      new Date((report.token.expiresAt! - (report.token.expiresAt! % 1)) * 1000)
        .toISOString()
        .slice(0, 19),
    )
    expect(fix.get('from')).toBe('refused')
    // Packages: all, some, none.
    const pkg = (name: string) =>
      screen.getAllByTestId('reach-package').find((p) => p.getAttribute('data-package') === name)!
    expect(pkg('type.string').getAttribute('data-decision')).toBe('all')
    expect(pkg('type').getAttribute('data-decision')).toBe('some')
    expect(pkg('core').getAttribute('data-decision')).toBe('none')
    // The key-value store as a tree: bucket, prefix, endpoints.
    const keyv = screen.getByTestId('reach-keyv')
    expect(within(keyv).getAllByTestId('reach-bucket')).toHaveLength(1)
    expect(within(keyv).getByTestId('reach-prefix').textContent).toMatch(
      /keys starting alice\/keyv\.get.*keyv\.scan/,
    )
    // When it stops: its expiry, an hour from now.
    const timeline = screen.getByTestId('reach-timeline')
    expect(timeline.textContent).toMatch(/In 1 h, at .*: its expiry\./)
    expect(timeline.querySelector('.life-stops')?.getAttribute('data-kind')).toBe('expires')
    expect(screen.getByTestId('reach-mint').textContent).toMatch(/^No/)
    expect(screen.getByTestId('reach-insecure').textContent).toBe('none')
    expect(screen.getByTestId('reach-secret').textContent).toContain(report.token.secretId!)
  })

  it('says a token that delegates can mint, and lists its insecure abilities', async () => {
    const { service } = await renderWithService(<TokenInspector />)
    const token = await service.authorize(
      ['auth.create', `${service.serviceName}.update`, 'core'],
      {
        insecure: true,
      },
    )
    inspect(token)
    await waitFor(() => expect(screen.getByTestId('reach-mint').textContent).toMatch(/^Yes/), {
      timeout: 10_000,
    })
    expect(
      within(screen.getByTestId('reach-insecure'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['auth.create', `${service.serviceName}.update`])
    expect(screen.getByTestId('reach-timeline').textContent).toMatch(/Never by time/)
  })

  it('shows a secret rolling decades away, a thousand procedures folded, and hidden characters', async () => {
    const { service } = await renderWithService(<TokenInspector />)
    await storeProcedures(service, 1000)
    const [secret] = await service.listSecrets()
    await service.rollSecret(secret!.id, (await service.now()) + 90 * 365 * 86_400)
    const token = await service.authorize(['lib.p0001', 'keyv.get?bucket=admin%E2%80%8B'])
    inspect(service.secret)
    await waitFor(
      () => expect(screen.getByTestId('reach-timeline').textContent).toMatch(/89 years/),
      {
        timeout: 20_000,
      },
    )
    expect(screen.getByTestId('reach-timeline').textContent).toMatch(/Its roll takes effect/)
    const lib = screen
      .getAllByTestId('reach-package')
      .find((p) => p.getAttribute('data-package') === 'lib')!
    expect(lib.hasAttribute('open')).toBe(false)
    expect(within(lib).getByRole('button', { name: 'Show 900 more' })).toBeTruthy()
    expect(lib.textContent).toContain('all: 1000 of 1000')
    // Found by name in the thousand.
    fireEvent.change(screen.getByLabelText('Find an endpoint'), { target: { value: 'lib.p0999' } })
    await waitFor(() => expect(screen.getAllByTestId('reach-endpoint')).toHaveLength(1))
    expect(screen.getAllByTestId('reach-endpoint')[0]!.getAttribute('data-endpoint')).toBe(
      'lib.p0999',
    )

    inspect(token)
    const bucket = await screen.findByTestId('reach-bucket', undefined, { timeout: 20_000 })
    expect(bucket.querySelector('.hidden-char')?.textContent).toBe('U+200B')
    expect(screen.getByTestId('reach-timeline').textContent).toMatch(/its secret's roll/)
  })

  it('says why an expired token reaches nothing, and what would have let it in', async () => {
    const { service } = await renderWithService(<TokenInspector />)
    const token = await service.authorize(['core.ping'], { ttl: 60 })
    await service.advanceClock(120)
    inspect(token)
    const unusable = await screen.findByTestId('reach-unusable', undefined, { timeout: 10_000 })
    expect(unusable.textContent).toMatch(/It reaches nothing now \(expired\)/)
    expect(within(unusable).getByTestId('counterfactual').textContent).toMatch(
      /What would have let it in: called before .* it would have passed/,
    )
    expect(row('core.ping').getAttribute('data-decision')).toBe('refused')
    expect(row('core.ping').textContent).toContain('expired')
    expect(screen.getByTestId('reach-timeline').textContent).toMatch(/It has stopped/)
  })
})

describe('from the grid to the composer', { timeout: 30_000 }, () => {
  it('fills the composer with the token inspected and the ability a refused endpoint needs, keeping the view', async () => {
    const { service } = await renderWithService(<AuthorizationsView />)
    const token = await service.authorize(['type.string'])
    window.location.hash = `#/authorizations?inspect=authorization:${token}&ttl=60`
    const link = await waitFor(
      () => within(row('type.number.add')).getByRole('link', { name: 'type.number.add' }),
      { timeout: 10_000 },
    )
    fireEvent.click(link)
    // A link is followed by the page; here the hash is set as the browser would.
    window.location.hash = link.getAttribute('href')!
    const chosen = await screen.findByRole('list', { name: 'Abilities to grant' })
    await waitFor(() =>
      expect(
        within(chosen)
          .getAllByRole('listitem')
          .map((li) => li.querySelector('code')!.textContent),
      ).toEqual(['type.string', 'type.number.add']),
    )
    const params = new URLSearchParams(window.location.hash.split('?')[1])
    expect(params.get('inspect')).toBe(`authorization:${token}`)
    expect(params.getAll('ability')).toEqual(['type.string', 'type.number.add'])
    // The composition the link replaced went with it: the link names the whole composition.
    expect(params.get('ttl')).toBeNull()
    expect(screen.getByTestId('composition-origin').textContent).toMatch(
      /^From the refused authorization\. Kept as it was: type\.string, no expiry, as it had none, no insecure abilities and its secret\. Changed: type\.number\.add added\./,
    )
    expect(screen.getByTestId('reach-count')).toBeTruthy()
  })
})
