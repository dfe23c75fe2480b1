import { useId, type ReactNode } from 'react'

/**
 * A labelled form control. The label points at the control with `for` instead of wrapping it,
 * so its accessible name is the label alone, never the options of a select inside it.
 */
export function Field({
  label,
  className,
  children,
}: {
  label: string
  className?: string
  children: (id: string) => ReactNode
}) {
  const id = useId()
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  )
}
