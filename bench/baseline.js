// The naive baseline: what a QR sign-in embed does when it polls on a timer, as SDKs commonly do
// with an 800 ms interval. It asks the same mock service for the same kind of challenge, shows the
// same inline image, and hands the token to the same controller the same way, so the figures
// differ only by how each learns of the signature. It polls the challenge's authTokenUrl, which
// answers at once: on the held status URL an 800 ms timer would be moot, since the hold itself
// would return the signature.
;(async () => {
  const { api, key, words, markup } = document.currentScript.dataset
  // With data-words, it also says what the widget says around its code (issue 33, item 9): a
  // status line, "Loading…" until the code comes, and the time left, each second. What any
  // accessible embed shows, so that the start-up phase can tell the cost of the words apart.
  const root = document.getElementById('baseline')
  const status = words === undefined ? undefined : root.appendChild(document.createElement('p'))
  if (status) status.textContent = 'Loading\u2026'
  // With data-markup, the image goes where the widget's goes: in the elements the widget builds
  // while its request is out (view.ts: the code's frame, the live region, the time left and the
  // button, all but the live region hidden), shown as the answer comes, with no words in its first
  // frame, as the widget's first code has none. Built just after the request is made, as the
  // widget builds them. What is left between the widget and this one is the widget's script.
  const answer = fetch(api + '/v1/entity/challenges', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ key, returnAuthImageData: true }),
  })
  const frame = markup === undefined ? undefined : widgetMarkup(root)
  const res = await answer
  const challenge = await res.json()
  const img = frame ? frame.firstChild : new Image()
  img.alt = 'QR code'
  img.src = 'data:image/png;base64,' + challenge.authImagesData['qrcode-standard']
  if (frame) img.hidden = false
  else root.prepend(img)
  if (status) {
    status.textContent = 'Scan with the app'
    const left = root.appendChild(document.createElement('p'))
    const tick = () => {
      const seconds = Math.max(0, Math.ceil((Date.parse(challenge.expiresAt) - Date.now()) / 1000))
      left.textContent = `Expires in ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
    }
    tick()
    setInterval(tick, 1000)
  }
  dispatchEvent(new CustomEvent('service-auth:ready', { detail: { challengeId: challenge.id } }))

  const timer = setInterval(async () => {
    const answer = await fetch(challenge.authTokenUrl, { cache: 'no-store' })
    if (answer.status !== 200) return
    clearInterval(timer)
    const { token } = await answer.json()
    const controller = await fetch('/auth/controller', {
      headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest', 'X-Service-Auth': token },
    })
    location.assign((await controller.json()).location)
  }, 800)
})()

/** The widget's elements as its view builds them, in the same order and state; returns the code's frame, its <img> within. */
function widgetMarkup(host) {
  const add = (tag, parent) => parent.appendChild(document.createElement(tag))
  const root = add('div', host)
  root.className = 'sa'
  root.lang = 'en'
  root.dir = 'ltr'
  root.tabIndex = -1
  const frame = add('a', root)
  add('img', frame).hidden = true
  add('p', root).role = 'status'
  add('p', root).hidden = true
  const button = add('button', root)
  button.type = 'button'
  button.hidden = true
  button.textContent = 'Show a new code'
  return frame
}
