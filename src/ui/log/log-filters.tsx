import { useMemo } from 'react'
import type { ExchangeRecord } from '../../engine'
import { Field } from '../shared/field'
import { codeLabel } from '../shared/labels'
import { reasonPhrase } from '../shared/wire'
import {
  useCodeFilter,
  useEndpointFilter,
  useFormatFilter,
  useStatusFilter,
  useTextFilter,
  useTokenFilter,
} from './log-route'
import { matches, STATUS_CLASSES } from './records'
import { factsOf, FORMAT_NAMES, matchesFacts, type BodyFormatName } from './summary'

const CLASS_LABELS: Record<(typeof STATUS_CLASSES)[number], string> = {
  '2xx': '2xx: success',
  '4xx': '4xx: refused or invalid',
  '5xx': '5xx: server error',
}

const ROLE_LABELS = {
  secret: 'a secret key',
  authorization: 'an authorization',
  none: 'no token',
  unknown: 'an unknown token',
} as const

/** The log's filters, each kept in the URL, and the records they let through (newest first). */
export function useLogFilters(records: readonly ExchangeRecord[]) {
  const [status, setStatus] = useStatusFilter()
  const [endpoint, setEndpoint] = useEndpointFilter()
  const [token, setToken] = useTokenFilter()
  const [code, setCode] = useCodeFilter()
  const [format, setFormat] = useFormatFilter()
  const [text, setText] = useTextFilter()
  const values = {
    status: status ?? '',
    endpoint: endpoint ?? '',
    token: token ?? '',
    code: code ?? '',
    format: format ?? '',
    text: text ?? '',
  }
  const { status: s, endpoint: e, token: t, code: c, format: f, text: x } = values
  // With no filter set, every record passes: none of their facts need working out.
  const unfiltered = !(s || e || t || c || f || x)
  const shown = useMemo(
    () =>
      unfiltered
        ? records
        : records.filter(
            (record) =>
              matches(record, { status: s, endpoint: e }) &&
              matchesFacts(record, { token: t, code: c, format: f, text: x }),
          ),
    [records, unfiltered, s, e, t, c, f, x],
  )
  const setters = { setStatus, setEndpoint, setToken, setCode, setFormat, setText }
  const clear = () => Object.values(setters).forEach((set) => set(null))
  return { values, setters, shown, clear }
}

type Filters = ReturnType<typeof useLogFilters>

/**
 * The filters over the list: status, endpoint, the token (its kind or its first characters),
 * the refusal code, the body format, and text in the request or the answer.
 */
export function LogFilters({
  records,
  filters,
}: {
  records: readonly ExchangeRecord[]
  filters: Filters
}) {
  const { values, setters } = filters
  // What the log holds, for the menus: statuses, codes, formats seen.
  const seen = useMemo(() => {
    const statuses = new Set<number>()
    const codes = new Set<string>()
    const formats = new Set<BodyFormatName>()
    for (const record of records) {
      statuses.add(record.response.status)
      const facts = factsOf(record)
      if (facts.code) codes.add(facts.code)
      formats.add(facts.format)
    }
    return {
      statuses: [...statuses].sort((a, b) => a - b),
      codes: [...codes].sort(),
      formats: [...formats].sort(),
    }
  }, [records])
  const statuses = [...seen.statuses]
  if (/^\d{3}$/.test(values.status) && !statuses.includes(Number(values.status))) {
    statuses.push(Number(values.status))
  }
  const codes =
    values.code && values.code !== 'refused' && !seen.codes.includes(values.code)
      ? [...seen.codes, values.code]
      : seen.codes
  const set = (setter: (value: string | null) => void) => (value: string) => setter(value || null)

  return (
    <div className="log-filters" data-testid="log-filters">
      <Field label="Status">
        {(id) => (
          <select
            id={id}
            value={values.status}
            onChange={(e) => set(setters.setStatus)(e.target.value)}
          >
            <option value="">Any status</option>
            {STATUS_CLASSES.map((statusClass) => (
              <option key={statusClass} value={statusClass}>
                {CLASS_LABELS[statusClass]}
              </option>
            ))}
            {statuses.map((code) => (
              <option key={code} value={String(code)}>
                {code} {reasonPhrase(code)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Endpoint contains">
        {(id) => (
          <input
            id={id}
            type="search"
            value={values.endpoint}
            placeholder="keyv"
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => set(setters.setEndpoint)(e.target.value)}
          />
        )}
      </Field>
      <Field label="Refusal">
        {(id) => (
          <select
            id={id}
            value={values.code}
            onChange={(e) => set(setters.setCode)(e.target.value)}
          >
            <option value="">Refused or not</option>
            <option value="refused">Any refusal</option>
            {codes.map((code) => (
              <option key={code} value={code}>
                {code}
                {codeLabel(code) ? `: ${codeLabel(code)}` : ''}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Token">
        {(id) => (
          <>
            <input
              id={id}
              type="search"
              list={`${id}-roles`}
              value={values.token}
              placeholder="authorization, eyJz…"
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => set(setters.setToken)(e.target.value)}
            />
            <datalist id={`${id}-roles`}>
              {Object.entries(ROLE_LABELS).map(([role, label]) => (
                <option key={role} value={role}>
                  {label}
                </option>
              ))}
            </datalist>
          </>
        )}
      </Field>
      <Field label="Body format">
        {(id) => (
          <select
            id={id}
            value={values.format}
            onChange={(e) => set(setters.setFormat)(e.target.value)}
          >
            <option value="">Any format</option>
            {seen.formats.map((format) => (
              <option key={format} value={format}>
                {FORMAT_NAMES[format]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Text in the request or answer">
        {(id) => (
          <input
            id={id}
            type="search"
            value={values.text}
            placeholder="alice/"
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => set(setters.setText)(e.target.value)}
          />
        )}
      </Field>
    </div>
  )
}
