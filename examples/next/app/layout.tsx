import type { ReactNode } from 'react'
// The widget's stylesheet: in <head> from the first paint, so the server-rendered element holds
// the widget's place and nothing moves when it mounts.
import 'service-auth/style.css'

export const metadata = { title: 'service-auth with Next.js', icons: 'data:,' }

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  )
}
