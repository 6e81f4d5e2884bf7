// The form kit's markup, rendered on the server (no DOM in the unit project): every control is
// named by its label and points at its message, as the e2e journeys' getByLabel relies on.
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { UnitsContext, type UnitSystem } from '../lib/units.ts'
import { CheckboxField, Field, fieldBinder, NOT_A_NUMBER, NumberField, Select } from './form.tsx'
import { quantity } from './quantity.ts'
import { useQuantityField } from './use-quantity-field.ts'

/** The attributes of the first `<tag …>` in html (a plain search, independent of the kit). */
function attrs(html: string, tag: string): Record<string, string> {
  const m = new RegExp(`<${tag}\\b([^>]*)>`).exec(html)
  if (!m) throw new Error(`no <${tag}> in ${html}`)
  const out: Record<string, string> = {}
  for (const a of m[1]!.matchAll(/([\w-]+)="([^"]*)"/g)) out[a[1]!.toLowerCase()] = a[2]!
  return out
}

/** The text of the element with this id, tags removed. */
function textOf(html: string, id: string): string | undefined {
  const m = new RegExp(`id="${id}"[^>]*>(.*?)</`).exec(html)
  return m?.[1]
}

/** The label's text as an accessible name: tags removed, white space folded. */
function labelText(html: string): string {
  const m = /<label\b[^>]*>(.*?)<\/label>/.exec(html)
  return (m?.[1] ?? '')
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

const noop = () => {}

describe('form kit fields', () => {
  it('Field: the label names the input with its unit; the hint describes it', () => {
    const html = renderToStaticMarkup(
      <Field label="CP" unit="W" value="280" onChange={noop} hint="Critical power." name="cp" />,
    )
    const input = attrs(html, 'input')
    expect(attrs(html, 'label').for).toBe(input.id)
    expect(labelText(html)).toBe('CP (W)')
    expect(input.value).toBe('280')
    expect(input.name).toBe('cp')
    expect(input.inputmode).toBe('decimal')
    expect(input['aria-invalid']).toBeUndefined()
    expect(textOf(html, input['aria-describedby']!)).toBe('Critical power.')
  })

  it('Field: an error replaces the hint, marks the input invalid and is its description', () => {
    const html = renderToStaticMarkup(
      <Field
        label="Rider weight"
        unit="kg"
        value="7x"
        onChange={noop}
        hint="Without the bike."
        error="Rider weight: expected 30–200 kg, got 7x"
      />,
    )
    const input = attrs(html, 'input')
    expect(input['aria-invalid']).toBe('true')
    expect(textOf(html, input['aria-describedby']!)).toBe(
      'Rider weight: expected 30–200 kg, got 7x',
    )
    expect(html).not.toContain('Without the bike.')
  })

  it('Field: no message, no aria-describedby; a date field has no inputmode', () => {
    const html = renderToStaticMarkup(
      <Field label="Start" value="" onChange={noop} type="datetime-local" required />,
    )
    const input = attrs(html, 'input')
    expect(input.required).toBe('')
    expect(input['aria-describedby']).toBeUndefined()
    expect(input.type).toBe('datetime-local')
    expect(input.inputmode).toBeUndefined()
    expect(labelText(html)).toBe('Start')
  })

  it('Select: labelled, with its options and the chosen one selected', () => {
    const html = renderToStaticMarkup(
      <Select
        label="Surface"
        name="surface"
        value={'normal' as 'smooth' | 'normal'}
        onChange={noop}
        options={[
          { value: 'smooth', label: 'Smooth tarmac' },
          { value: 'normal', label: 'Normal roads' },
        ]}
      />,
    )
    const select = attrs(html, 'select')
    expect(attrs(html, 'label').for).toBe(select.id)
    expect(labelText(html)).toBe('Surface')
    expect(html).toMatch(/<option value="normal" selected="">Normal roads<\/option>/)
    expect(html.match(/<option /g)).toHaveLength(2)
  })

  it('CheckboxField: the label names the checkbox', () => {
    const html = renderToStaticMarkup(
      <CheckboxField label="Wet roads" name="wet" checked onChange={noop} />,
    )
    const input = attrs(html, 'input')
    expect(input.type).toBe('checkbox')
    expect(input.checked).toBe('')
    expect(attrs(html, 'label').for).toBe(input.id)
  })
})

/** A NumberField of a rider mass of `kg`, rendered in `system`, as the tools use it. */
function MassField({ kg, optional = false }: { kg: number | undefined; optional?: boolean }) {
  const field = useQuantityField(quantity('mass'), kg, optional)
  return <NumberField name="rider_mass" label="Rider mass" field={field} hint="With kit." />
}

function renderIn(system: UnitSystem, node: ReactNode): string {
  return renderToStaticMarkup(
    <UnitsContext.Provider value={{ system, setSystem: noop }}>{node}</UnitsContext.Provider>,
  )
}

describe('NumberField with the units hook', () => {
  it('shows the SI value in the user units, the unit in the label (75 kg = 165.3 lb)', () => {
    const metric = renderIn('metric', <MassField kg={75} />)
    expect(labelText(metric)).toBe('Rider mass (kg)')
    expect(attrs(metric, 'input').value).toBe('75')
    const imperial = renderIn('imperial', <MassField kg={75} />)
    expect(labelText(imperial)).toBe('Rider mass (lb)')
    expect(attrs(imperial, 'input').value).toBe('165.3')
    const input = attrs(imperial, 'input')
    expect(input['aria-invalid']).toBeUndefined()
    expect(textOf(imperial, input['aria-describedby']!)).toBe('With kit.')
  })

  it('an optional empty field is valid and empty', () => {
    const html = renderIn('metric', <MassField kg={undefined} optional />)
    expect(attrs(html, 'input').value).toBe('')
    expect(attrs(html, 'input')['aria-invalid']).toBeUndefined()
  })

  it('a value that is no number is invalid with "Enter a number."', () => {
    const html = renderIn(
      'metric',
      <NumberField
        name="x"
        label="Rider mass"
        hint="With kit."
        field={{ text: 'abc', onChange: noop, si: Number.NaN, unit: 'kg', invalid: true }}
      />,
    )
    const input = attrs(html, 'input')
    expect(input['aria-invalid']).toBe('true')
    expect(textOf(html, input['aria-describedby']!)).toBe(NOT_A_NUMBER)
    expect(NOT_A_NUMBER).toBe('Enter a number.')
  })
})

describe('fieldBinder', () => {
  it('gives a Field the form text, its error, and writes back through set', () => {
    const form = { bikeMass: '8.2', extraMass: '', bikeType: 'road' as 'road' | 'tt' }
    const writes: [string, unknown][] = []
    const bind = fieldBinder(form, (k, v) => writes.push([k, v]), { bikeMass: 'too light' })
    const bike = bind('bikeMass')
    expect(bike.value).toBe('8.2')
    expect(bike.error).toBe('too light')
    expect(bind('extraMass').error).toBeUndefined()
    bike.onChange('9')
    expect(writes).toEqual([['bikeMass', '9']])
    const html = renderToStaticMarkup(<Field label="Bike mass" unit="kg" {...bike} />)
    expect(attrs(html, 'input').value).toBe('8.2')
    expect(attrs(html, 'input')['aria-invalid']).toBe('true')
  })
})
