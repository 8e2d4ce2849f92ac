// The demo's stand-in for the user's phone. Only a provisioned device may sign, so the first
// time an identifier signs, its phone is set up the way the real flow does it: this site
// enrolls the identity at the service (its server signs that request), and the phone redeems
// the enrollment code through the service's knobs, as the app would after scanning it. Then the
// phone signs the code the widget shows. The site hands out a code only for a new identity (or
// to the person signed in as it): for one enrolled already, the code goes to its e-mail, and
// this panel says so (but for the default name, see fromMailbox()). The devices it set up are kept in localStorage, the phone's storage.
;(() => {
  var panel = document.querySelector('section[data-service-url]')
  if (!panel) return
  var serviceUrl = panel.getAttribute('data-service-url')
  var button = panel.querySelector('#sign-with-phone')
  var identifier = panel.querySelector('#phone-identifier')
  var status = panel.querySelector('#phone-status')
  // The name the page suggests (its markup's value): the one that always signs in, see fromMailbox().
  // A name typed is trimmed, as the QA panel's is, so both panels mean the same identity.
  var DEFAULT_NAME = identifier.defaultValue
  var challengeId = null
  var busy = false
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

  // The widget's error reasons that keep the code on screen: it polls again by itself.
  var RECONNECTS = ['network', 'response', 'service']

  /** What the panel says when the widget gives up on the code shown ({reason, status, retryAfter?}). */
  function refusal(detail) {
    var said =
      detail.reason === 'controller'
        ? 'The site refused the sign-in (' + detail.status + ').'
        : 'The sign-in failed (' + detail.reason + (detail.status ? ', ' + detail.status : '') + ').'
    return said + (detail.retryAfter === undefined ? '' : ' A new code follows.')
  }

  // aria-disabled, not disabled: a disabled button loses the keyboard focus to <body>, so a person
  // who pressed Enter on it would have to find their place again once it is usable.
  // Usable with a code to sign and no attempt under way.
  function refresh() {
    button.setAttribute('aria-disabled', String(!challengeId || busy))
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
        if (response.status === 202 && name === DEFAULT_NAME) return fromMailbox(name)
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

  // The default name is the demo's own, and so is its mailbox (the outbox /phone reads): a browser
  // that did not set its phone up (another one, cleared storage, a later run on the kept state)
  // takes the code from the e-mail the site had sent, as the owner would, so the button signs in
  // every time. Any other name enrolled elsewhere still gets no code here.
  function fromMailbox(name) {
    show('Setting up the phone for ' + name + ' from its e-mail…')
    return fetch(serviceUrl + '/__knobs/outbox')
      .then((response) => {
        if (!response.ok) throw failure('Reading the e-mail', response)
        return response.json()
      })
      .then((messages) => {
        var mail = messages.filter((message) => message.to === name && message.enrollmentId).at(-1)
        if (!mail) throw notShown('No e-mail with a code for ' + name + ' is in the outbox.')
        return { id: mail.enrollmentId }
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

  // Each event that changes the code shown starts a new round: an attempt still under way when
  // one comes must not then claim the page will sign in.
  var round = 0

  function code(id, text) {
    round++
    challengeId = id
    refresh()
    show(text)
  }

  document.addEventListener('service-auth:ready', (event) => {
    var id = event.detail?.challengeId
    code(id, id ? 'Code ' + id + ' is on screen.' : 'Waiting for a code.')
  })
  // The widget makes a new code by itself; until it shows, there is nothing to sign.
  document.addEventListener('service-auth:expired', () => code(null, 'The code expired.'))
  // A signed code is used up, whoever signed it: the page goes on to the site's controller.
  document.addEventListener('service-auth:signed', () => code(null, 'Signed. The page should now sign you in.'))
  document.addEventListener('service-auth:error', (event) => {
    var detail = event.detail || {}
    // A poll that failed leaves the code on screen while the widget reconnects; it is still there to sign.
    if (challengeId && RECONNECTS.includes(detail.reason)) return
    code(null, refusal(detail))
  })

  button.addEventListener('click', () => {
    // Busy, or no code to sign: the button stays focusable, so it ignores the press instead.
    if (!challengeId || busy) return
    var started = round
    busy = true
    refresh()
    signAs(challengeId, identifier.value.trim() || DEFAULT_NAME)
      .then((response) => {
        if (!response.ok) throw failure('Signing', response)
        // Used up, so not to be signed twice; and if the widget has said how it ended already
        // (signed, then refused), that stands.
        if (round === started) code(null, 'Signed. The page should now sign you in.')
      })
      .catch((error) => {
        show(error?.status ? error.message : 'The service could not be reached.')
      })
      .finally(() => {
        busy = false
        refresh()
      })
  })
})()
