// Session.client: what a sign-in session says about the browser that asked for the challenge,
// read off its User-Agent and address. `location` stays null: the mock has no geo-IP data offline.
import type { ChallengeBrowser } from '../challenges/challenge-store.js'
import type { SessionClient } from './session-store.js'

// First match wins: Edge and Opera also say Chrome, and Chrome also says Safari.
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(HeadlessChrome|Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
]

// Android and iOS before Linux and macOS, whose names their user agents also carry.
const PLATFORMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
]

const firstMatch = (table: [RegExp, string][], text: string): string | null => table.find(([pattern]) => pattern.test(text))?.[1] ?? null

export function describeBrowser({ ip, userAgent }: ChallengeBrowser): SessionClient {
  const browser = firstMatch(BROWSERS, userAgent ?? '')
  const platform = firstMatch(PLATFORMS, userAgent ?? '')
  const label = browser && platform ? `${browser} on ${platform}` : (browser ?? platform)
  return { ip, label, browser, platform, location: null }
}
