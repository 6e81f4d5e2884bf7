// Small layout pieces of the aero screens, from the shared kit (components/layout-kit.tsx): a
// card's title is an h3 here, under the page sections' h2.
import type { ComponentProps } from 'react'
import { Card as KitCard } from '../../components/layout-kit.tsx'

export { Button } from '../../components/layout-kit.tsx'

export function Card(props: ComponentProps<typeof KitCard>) {
  return <KitCard titleLevel={3} {...props} />
}
