// The naive baseline: what a QR sign-in embed does when it polls on a timer, as SDKs commonly do
// with an 800 ms interval. It asks the same mock service for the same kind of challenge, shows the
// same inline image, and hands the token to the same controller the same way, so the figures
// differ only by how each learns of the signature. It polls the challenge's authTokenUrl, which
// answers at once: on the held status URL an 800 ms timer would be moot, since the hold itself
// would return the signature.
;(async () => {
  const { api, key } = document.currentScript.dataset
  const res = await fetch(api + '/v1/entity/challenges', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ key, returnAuthImageData: true }),
  })
  const challenge = await res.json()
  const img = new Image()
  img.alt = 'QR code'
  img.src = 'data:image/png;base64,' + challenge.authImagesData['qrcode-standard']
  document.getElementById('baseline').append(img)
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
