import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useConfig } from '../shared/config'
import { CopyButton } from '../shared/copy-button'
import { routeHref } from '../shared/router'
import { Name, visibleText } from '../shared/quoted'
import { ErrorReason } from '../shared/refusal'
import { AsText, JsonField, readValue } from '../shared/json-field'
import { deleteKey, setValue } from './api'
import { useAccountMutation } from '../shared/queries'
import { valueQuery } from './queries'

/** What a key's row shows under it: its value, an editor, or the question before deleting. */
export type RowMode = 'view' | 'edit' | 'delete'

interface RowProps {
  token: string
  bucket: string
  name: string
  mode: RowMode | null
  onMode: (mode: RowMode | null) => void
}

/** One key, with its value on demand, and editing and deleting it. */
export function KeyRow({ token, bucket, name, mode, onMode }: RowProps) {
  const toggle = (wanted: RowMode) => onMode(mode === wanted ? null : wanted)
  const shown = visibleText(name)
  return (
    <>
      <tr data-testid="key-row" data-key={name}>
        <th scope="row">
          <code className="key-name">
            <Name text={name} />
          </code>
        </th>
        <td className="key-actions-cell">
          <div className="key-actions">
            <button
              type="button"
              aria-expanded={mode === 'view'}
              aria-label={`${mode === 'view' ? 'Hide' : 'Show'} value of ${shown}`}
              onClick={() => toggle('view')}
            >
              {mode === 'view' ? 'Hide value' : 'Show value'}
            </button>
            <button
              type="button"
              aria-pressed={mode === 'edit'}
              aria-label={`Edit ${shown}`}
              onClick={() => toggle('edit')}
            >
              Edit
            </button>
            <button
              type="button"
              aria-pressed={mode === 'delete'}
              aria-label={`Delete ${shown}`}
              onClick={() => toggle('delete')}
            >
              Delete
            </button>
            <a
              href={routeHref('authorizations', { who: 'key', whoBucket: bucket, whoKey: name })}
              aria-label={`Who can reach ${shown}?`}
            >
              Who can reach it?
            </a>
          </div>
        </td>
      </tr>
      {mode && (
        <tr className="key-detail">
          <td colSpan={2}>
            {mode === 'view' && <ValueView token={token} bucket={bucket} name={name} />}
            {mode === 'edit' && (
              <ValueEditor token={token} bucket={bucket} name={name} onDone={onMode} />
            )}
            {mode === 'delete' && (
              <DeleteQuestion token={token} bucket={bucket} name={name} onDone={onMode} />
            )}
          </td>
        </tr>
      )}
    </>
  )
}

type Target = Pick<RowProps, 'token' | 'bucket' | 'name'>

function ValueView({ token, bucket, name }: Target) {
  const config = useConfig()
  const value = useQuery(valueQuery(config, token, bucket, name))
  if (value.isPending) return <p className="muted">Reading {visibleText(name)}…</p>
  if (value.isError) return <ErrorReason error={value.error} />
  const pretty = JSON.stringify(value.data, null, 2)
  return (
    <div className="key-value">
      <pre aria-label={`Value of ${visibleText(name)}`} data-testid="key-value">
        {pretty}
      </pre>
      <CopyButton text={pretty} label="Copy value" />
    </div>
  )
}

function ValueEditor({ token, bucket, name, onDone }: Target & { onDone: (m: RowMode) => void }) {
  const config = useConfig()
  const value = useQuery(valueQuery(config, token, bucket, name))
  if (value.isPending) return <p className="muted">Reading {visibleText(name)}…</p>
  if (value.isError) return <ErrorReason error={value.error} />
  return (
    <EditForm
      token={token}
      bucket={bucket}
      name={name}
      initial={JSON.stringify(value.data, null, 2)}
      onDone={onDone}
    />
  )
}

function EditForm({
  token,
  bucket,
  name,
  initial,
  onDone,
}: Target & { initial: string; onDone: (m: RowMode) => void }) {
  const config = useConfig()
  const [text, setText] = useState(initial)
  const [tried, setTried] = useState(false)
  const field = useRef<HTMLDivElement>(null)
  const save = useAccountMutation((value: Parameters<typeof setValue>[2]) =>
    setValue(config, token, value),
  )
  const reading = readValue(text)
  const shown =
    tried && reading.empty
      ? { ...reading, problem: 'Write the new value: text, or JSON.' }
      : reading

  useEffect(() => field.current?.querySelector('textarea')?.focus(), [])

  function submit(event: FormEvent) {
    event.preventDefault()
    setTried(true)
    if (reading.value === undefined) return
    save.mutate({ bucket, key: name, value: reading.value }, { onSuccess: () => onDone('view') })
  }

  return (
    <form className="key-edit" onSubmit={submit} noValidate>
      <div ref={field}>
        <JsonField
          label={`New value of ${visibleText(name)} (JSON or text)`}
          text={text}
          onText={setText}
          reading={shown}
          help={reading.asText ? <AsText text={text} verb="saved" /> : undefined}
          rows={Math.min(12, Math.max(3, text.split('\n').length))}
        />
      </div>
      <div className="key-edit-actions">
        <button type="submit" disabled={save.isPending}>
          Save value
        </button>
        <button type="button" onClick={() => onDone('view')}>
          Cancel
        </button>
      </div>
      {save.isError && <ErrorReason error={save.error} />}
    </form>
  )
}

function DeleteQuestion({ token, bucket, name, onDone }: Target & { onDone: (m: null) => void }) {
  const config = useConfig()
  const confirm = useRef<HTMLButtonElement>(null)
  const remove = useAccountMutation(() => deleteKey(config, token, { bucket, key: name }))
  useEffect(() => confirm.current?.focus(), [])
  return (
    <div className="key-delete" role="group" aria-label={`Delete ${visibleText(name)}?`}>
      <p>
        Delete{' '}
        <code>
          <Name text={name} />
        </code>{' '}
        from{' '}
        <code>
          <Name text={bucket} />
        </code>
        ? Its value is gone for good.
      </p>
      <div className="key-edit-actions">
        <button
          ref={confirm}
          type="button"
          className="danger"
          disabled={remove.isPending}
          onClick={() => remove.mutate(undefined, { onSuccess: () => onDone(null) })}
        >
          Delete key
        </button>
        <button type="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
      {remove.isError && <ErrorReason error={remove.error} />}
    </div>
  )
}
