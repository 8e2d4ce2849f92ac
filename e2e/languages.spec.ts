// The languages as a person sees them: a page's language picks the pack, right-to-left languages
// lay the widget out right to left, and every pack's every text fits the widget at its smallest
// supported size, neither overflowing nor cut.
import type { Page } from '@playwright/test'
// The packs as the package publishes them: each a script that adds its pack to a global
// (ServiceAuthTexts, by lower-case tag), imported for that; the pages load the same files.
import 'service-auth/languages/ar.js'
import 'service-auth/languages/de.js'
import 'service-auth/languages/zh-TW.js'
import { expect, fixture, shownChallenge, test, widget } from './fixtures.js'
import { drawQrPng } from './qr.js'
import { frame } from './states.js'

const { ar: arabic, de: german, 'zh-tw': traditionalChinese } = globalThis.ServiceAuthTexts!

// The three pages of issue 35's "done when": no `locale` anywhere, only the page's language.
test('a page in Arabic with the Arabic pack speaks Arabic, right to left, with lang="ar" on the widget', async ({ page }) => {
  await page.goto(fixture({ lang: 'ar', packs: 'ar' }))
  await shownChallenge(page)
  await expect(widget(page).getByRole('status')).toHaveText(arabic.ready)
  await expect(widget(page).getByRole('img', { name: arabic.alt })).toBeVisible()
  await expect(frame(page)).toHaveAttribute('lang', 'ar')
  await expect(frame(page)).toHaveAttribute('dir', 'rtl')
  await expect(frame(page)).toHaveCSS('direction', 'rtl')
  // The countdown in the digits Arabic writes, and none of 0-9.
  const countdown = frame(page).locator('p:not([role])')
  await expect(countdown).toHaveText(new RegExp(`^${arabic.left}[٠-٩]{2}:[٠-٩]{2}$`))
})

test('a page in de-AT with the German pack speaks German', async ({ page }) => {
  await page.goto(fixture({ lang: 'de-AT', packs: 'de' }))
  await shownChallenge(page)
  await expect(widget(page).getByRole('status')).toHaveText(german.ready)
  await expect(frame(page)).toHaveAttribute('lang', 'de')
  await expect(frame(page)).toHaveAttribute('dir', 'ltr')
})

test('a page in zh-Hant with the zh-TW pack speaks Traditional Chinese', async ({ page }) => {
  await page.goto(fixture({ lang: 'zh-Hant', packs: 'zh-TW' }))
  await shownChallenge(page)
  await expect(widget(page).getByRole('status')).toHaveText(traditionalChinese.ready)
  await expect(frame(page)).toHaveAttribute('lang', 'zh-TW')
})

test('a page in Arabic without its pack speaks English, left to right', async ({ page }) => {
  await page.goto(fixture({ lang: 'ar', packs: 'none' }))
  await shownChallenge(page)
  await expect(widget(page).getByRole('status')).toHaveText('Scan with the app')
  await expect(frame(page)).toHaveAttribute('lang', 'en')
  await expect(frame(page)).toHaveAttribute('dir', 'ltr')
})

/** The smallest size the texts are made to fit, the default (README: Theming, `--sa-size`): layout.spec.ts holds every state to its box. */
const SMALLEST = '200px'

/** The service the overflow page's widgets ask: each create answered at once by route, by its key. */
const FAKE_SERVICE = '/fake-service'

/**
 * Mounts, for every pack the page has loaded (service-auth.languages.js), one widget per status
 * text, showing it in the error state with a button text beside it, and one ready widget whose
 * countdown reads the widest it can (hours on). Returns how many it mounted.
 */
const mountEveryText = (page: Page) =>
  page.evaluate(
    ({ statusKeys, buttonKeys, service }) => {
      const packs = [...new Set(Object.values(window.ServiceAuthTexts!))]
      const { ServiceAuth } = window as unknown as { ServiceAuth: { mount: (el: HTMLElement, options: object) => unknown } }
      const host = document.querySelector('main')!
      let count = 0
      const mount = (lang: string, key: string, texts?: Record<string, string>) => {
        const el = host.appendChild(document.createElement('div'))
        el.setAttribute('data-service-auth', '')
        el.className = 'overflow-probe'
        ServiceAuth.mount(el, { apiKey: key, authUrl: '/auth/controller', api: location.origin + service, locale: lang, texts })
        count++
      }
      for (const pack of packs) {
        const texts = pack as unknown as Record<string, string>
        statusKeys.forEach((key, i) => {
          const button = buttonKeys[i % buttonKeys.length]!
          mount(pack.lang, 'refused', { error: texts[key]!, retry: texts[button]! })
        })
        mount(pack.lang, 'ready')
      }
      return count
    },
    {
      statusKeys: ['loading', 'ready', 'tap', 'signing', 'signed', 'reconnecting', 'expired', 'error', 'failed'],
      buttonKeys: ['retry', 'newCode'],
      service: FAKE_SERVICE,
    },
  )

/** Every text of every widget on the page that does not fit: overflowing its box, or its box the widget's. */
const misfits = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.overflow-probe .sa')].flatMap((root) => {
      const frame = root.getBoundingClientRect()
      const style = getComputedStyle(root)
      const inner = {
        top: frame.top + parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop),
        bottom: frame.bottom - parseFloat(style.borderBottomWidth) - parseFloat(style.paddingBottom),
        left: frame.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft),
        right: frame.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight),
      }
      return [...root.querySelectorAll<HTMLElement>('p, button')]
        .filter((el) => !el.hidden && el.textContent)
        .flatMap((el) => {
          const box = el.getBoundingClientRect()
          const overflows =
            el.scrollWidth > el.clientWidth ||
            el.scrollHeight > el.clientHeight ||
            box.top < inner.top - 0.5 ||
            box.bottom > inner.bottom + 0.5 ||
            box.left < inner.left - 0.5 ||
            box.right > inner.right + 0.5
          return overflows ? [`${root.lang}: "${el.textContent}" (${el.localName}, ${Math.round(box.width)}×${Math.round(box.height)})`] : []
        })
    }),
  )

// And at a reader's larger default font size, Chrome's "Very large" (24px), which a page in rem or
// % passes on to the widget while the code keeps its size: the texts take more lines, and a word
// wider than the column (Ukrainian's Завантаження…) breaks, rather than running out of the frame.
for (const fontSize of ['16px', '24px']) {
  test(`every pack's every text fits the widget at its smallest size (--sa-size: ${SMALLEST}), right to left too, in ${fontSize} text`, async ({ page }) => {
    const png = (await drawQrPng('serviceauth:challenge:overflow')).toString('base64')
    await page.route(`**${FAKE_SERVICE}/v1/entity/challenges`, async (route) => {
      const { key } = route.request().postDataJSON()
      if (key == 'refused') return route.fulfill({ status: 403, contentType: 'application/problem+json', json: { title: 'Forbidden', status: 403 } })
      const api = new URL(FAKE_SERVICE, route.request().url()).href
      const now = Date.now()
      // Ten hours: the countdown at its widest, with hours (10:00:00).
      await route.fulfill({
        status: 201,
        json: {
          id: 'c' + Math.random(),
          createdAt: new Date(now).toISOString(),
          expiresAt: new Date(now + 36_000_000).toISOString(),
          authImages: { 'qrcode-standard': api + '/code.png' },
          authImagesData: { 'qrcode-standard': png },
          pollingUrl: api + '/v1/entity/challenges/c/status',
        },
      })
    })
    // Never answered: the ready widgets stay ready.
    await page.route(`**${FAKE_SERVICE}/v1/entity/challenges/*/status**`, () => {})
    await page.goto(fixture({ packs: 'all', count: 1 }))
    await page.addStyleTag({ content: `.overflow-probe { --sa-size: ${SMALLEST}; display: inline-block; margin: 4px; font-size: ${fontSize} }` })
    const mounted = await mountEveryText(page)
    expect(mounted).toBeGreaterThanOrEqual(40 * 10)
    await expect(page.locator('.overflow-probe .sa[data-state="error"]')).toHaveCount((mounted / 10) * 9)
    await expect(page.locator('.overflow-probe .sa[data-state="ready"]')).toHaveCount(mounted / 10)
    expect(await misfits(page)).toEqual([])
  })
}
