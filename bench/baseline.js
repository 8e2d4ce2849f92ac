// The naive baseline: what a QR sign-in embed does when it polls on a timer, as SDKs commonly do
// with an 800 ms interval. It asks the same mock service for the same kind of challenge, shows the
// same inline image, and hands the token to the same controller the same way, so the figures
// differ only by how each learns of the signature. It polls the challenge's authTokenUrl, which
// answers at once: on the held status URL an 800 ms timer would be moot, since the hold itself
// would return the signature.
;(async () => {
  const { api, key, words } = document.currentScript.dataset
  // With data-words, it also says what the widget says around its code (issue 33, item 9): a
  // status line, "Loading…" until the code comes, and the time left, each second. What any
  // accessible embed shows, so that the start-up phase can tell the cost of the words apart.
  const root = document.getElementById('baseline')
  const status = words === undefined ? undefined : root.appendChild(document.createElement('p'))
  if (status) status.textContent = 'Loading\u2026'
  const res = await fetch(api + '/v1/entity/challenges', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ key, returnAuthImageData: true }),
  })
  const challenge = await res.json()
  const img = new Image()
  img.alt = 'QR code'
  img.src = 'data:image/png;base64,' + challenge.authImagesData['qrcode-standard']
  root.prepend(img)
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
