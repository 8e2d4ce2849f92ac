// The demo's stand-in for the user's phone. Only a provisioned device may sign, so the first
// time an identifier signs, its phone is set up the way the real flow does it: this site
// enrolls the identity at the service (its server signs that request), and the phone redeems
// the enrollment code through the service's knobs, as the app would after scanning it. Then the
// phone signs the code the widget shows. The site hands out a code only for a new identity (or
// to the person signed in as it): for one enrolled already, the code goes to its e-mail, and
// this panel says so. The devices it set up are kept in localStorage, the phone's storage.
;(() => {
  var panel = document.querySelector('section[data-service-url]')
  if (!panel) return
  var serviceUrl = panel.getAttribute('data-service-url')
  var button = panel.querySelector('#sign-with-phone')
  var identifier = panel.querySelector('#phone-identifier')
  var status = panel.querySelector('#phone-status')
  var challengeId = null
  // identifier -> device id, kept across reloads: the site will not hand a code for the same
  // identifier out again.
  var STORAGE_KEY = 'demo-login-phones'
  var devices = load()

  function load() {
    try {
      return JSON.parse(localStorage.getItem(STORAGE_KEY) || '{}') || {}
    } catch {
      return {}
    }
  }

  function save() {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(devices))
  }

  function show(text) {
    status.textContent = text
  }

  function postJson(url, body) {
    return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  }

  function failure(what, response) {
    var error = new Error(
      response.status === 404 ? what + ': not found, or the service knobs are off (SERVICE_KNOBS=1).' : what + ': the answer was ' + response.status + '.',
    )
    error.status = response.status
    return error
  }

  function notShown(text) {
    var error = new Error(text)
    error.status = 403
    return error
  }

  function provision(name) {
    show('Setting up the phone for ' + name + '…')
    return postJson('/__app/enroll', { identifier: name })
      .then((response) => {
        if (response.status === 202)
          throw notShown(
            name +
              ' is enrolled already, so the site sent its code to that address, not here: set the phone up from the e-mail on the phone page, or sign in as ' +
              name +
              ' and add a phone.',
          )
        if (response.status === 403) throw notShown(name + ' is enrolled already: sign in as ' + name + ' to add a phone.')
        if (!response.ok) throw failure('Enrolling', response)
        return response.json()
      })
      .then((enrollment) => {
        // The enrollment QR code says serviceauth:enroll:<id>; the phone would read it off the screen.
        return postJson(serviceUrl + '/__knobs/devices', { token: 'serviceauth:enroll:' + enrollment.id, model: 'Demo phone' })
      })
      .then((response) => {
        if (!response.ok) throw failure('Provisioning the phone', response)
        return response.json()
      })
      .then((result) => {
        devices[name] = result.device.id
        save()
        return result.device.id
      })
  }

  function sign(id, name, deviceId) {
    return postJson(serviceUrl + '/__knobs/challenges/' + encodeURIComponent(id) + '/sign', { identifier: name, deviceId: deviceId })
  }

  function signAs(id, name) {
    var known = devices[name]
    return (known ? Promise.resolve(known) : provision(name)).then((deviceId) => {
      show('Signing…')
      return sign(id, name, deviceId).then((response) => {
        // The service forgot the device (a reset, a deleted identity): set the phone up again, once.
        if (known && (response.status === 404 || response.status === 403)) {
          delete devices[name]
          save()
          return provision(name).then((fresh) => sign(id, name, fresh))
        }
        return response
      })
    })
  }

  document.addEventListener('service-auth:ready', (event) => {
    challengeId = event.detail?.challengeId
    button.disabled = !challengeId
    show(challengeId ? 'Code ' + challengeId + ' is on screen.' : 'Waiting for a code.')
  })
  // The widget makes a new code by itself; until it shows, there is nothing to sign.
  document.addEventListener('service-auth:expired', () => {
    challengeId = null
    button.disabled = true
    show('The code expired.')
  })

  button.addEventListener('click', () => {
    if (!challengeId) return
    button.disabled = true
    signAs(challengeId, identifier.value || 'user@example.com')
      .then((response) => {
        if (response.ok) show('Signed. The page should now sign you in.')
        else throw failure('Signing', response)
      })
      .catch((error) => {
        show(error?.status ? error.message : 'The service could not be reached.')
      })
      .finally(() => {
        button.disabled = !challengeId
      })
  })
})()
