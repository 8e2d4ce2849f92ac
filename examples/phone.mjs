// @ts-check
// The phone's side, to try the examples by hand against the mock service (`npx
// @service-auth/mock`, whose /__knobs/ test endpoints this uses): enrol an identity and set up a phone for it,
// then sign the code on the login page as that phone would. (In a test, @service-auth/mock's
// enrolPhone and signShownCode do the same, and sign exactly the code the page shows.)
//
//   node examples/phone.mjs enrol ada@example.com
//   node examples/phone.mjs sign ada@example.com
//
// It reads SERVICE_URL, SERVICE_KEY and SERVICE_SECRET, as the example apps do.
import { createClient } from 'service-auth/server'

const [command, identifier = 'ada@example.com'] = process.argv.slice(2)
const { SERVICE_URL, SERVICE_KEY, SERVICE_SECRET } = process.env
if (!SERVICE_URL || !SERVICE_KEY || !SERVICE_SECRET || !['enrol', 'sign'].includes(command ?? '')) {
  console.error('usage: SERVICE_URL=… SERVICE_KEY=… SERVICE_SECRET=… node examples/phone.mjs enrol|sign [identifier]')
  process.exit(2)
}

/** @param {string} path @param {unknown} [body] */
async function knob(path, body) {
  const res = await fetch(`${SERVICE_URL}/__knobs/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()} (is it the mock service, with its knobs on?)`)
  return res.json()
}

if (command === 'enrol') {
  // What your back office does (a signed call), then the phone scanning the enrollment code.
  const { enrollment } = await createClient({ baseUrl: SERVICE_URL, key: SERVICE_KEY, secret: SERVICE_SECRET }).enroll({ identifier })
  await knob('devices', { token: enrollment.id })
  console.log(`${identifier} has a phone now.`)
} else {
  /** @type {{ id: string, state: string }[]} */
  const challenges = await knob('challenges')
  const shown = challenges.filter((challenge) => challenge.state === 'pending').at(-1)
  if (!shown) throw new Error('No code is on screen: open the login page first.')
  await knob(`challenges/${shown.id}/sign`, { identifier })
  console.log(`Signed ${shown.id} as ${identifier}.`)
}
