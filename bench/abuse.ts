// Measure 7: a key under anonymous abuse. The API key is in every login page, so a bot can create
// challenges with it as fast as it likes. While one does, 200 creations a second from an address
// of its own, people keep signing in, one every `everyMs`: each creates a challenge from another
// address, the phone signs, the browser reads the token from its pollingUrl, and the integrator's
// server confirms it with a signed `authenticate` (the call the controller makes), which is timed.
// The sign-ins start once the bot has spent its budget (its first 429), and the same sign-ins run
// first without the bot, for comparison. The mock service runs in a child process with its
// default rate limits, the ones under test, its state in a data directory as `npm start` keeps it:
// every confirmation is on disk before authenticate answers.
import { generateCredentials } from '@service-auth/mock/service'
import { createClient } from 'service-auth/server'
import { send, withServiceProcess, type StoreKind } from './capacity.js'

export interface AbuseResult {
  /** Where the service kept its state. */
  store: StoreKind
  /** The bot's target rate, creations per second, and what it reached. */
  botRate: number
  botAchievedRate: number
  durationS: number
  /** The bot's creations by answer: 201, 429, anything else, no answer. */
  bot: { created: number; limited: number; other: number; errors: number }
  /** Signed authenticate latency, ms, per sign-in: without the bot, then while it runs. */
  quiet: number[]
  abused: number[]
  /** Sign-ins that did not end in 200 from authenticate (any step failing counts), per phase. */
  failed: { quiet: number; abused: number }
  /** The first failure's reason, if any: what a reader needs when `failed` is not 0. */
  firstFailure: string | null
}

interface Options {
  /** Bot creations per second. */
  botRate: number
  /** Sign-ins per phase, one every `everyMs`; both phases together stay under the person's creation budget. */
  signIns: number
  everyMs: number
}

const BOT_ADDRESS = '127.0.0.2'
const PERSON_ADDRESS = '127.0.0.1'
const IDENTIFIER = 'abuse@example.com'

export async function measureAbuse(options: Options): Promise<AbuseResult> {
  const credentials = generateCredentials()
  // The default limits (600 signed calls per key, 120 creations per key and address, a minute each).
  const settings = { ...credentials, holdMs: 1000, rateLimit: 600, browserRateLimit: 120 }
  return withServiceProcess(settings, 'data directory', async (url) => {
    const client = createClient({ baseUrl: url, key: credentials.apiKey, secret: credentials.apiSecret })
    const { enrollment } = await client.enroll({ identifier: IDENTIFIER })
    const provisioned = await send(url, 'POST', '/__knobs/devices', { token: enrollment.id }, PERSON_ADDRESS)
    if (provisioned.status !== 201) throw new Error(`Provisioning the phone answered ${provisioned.status}: ${provisioned.body}`)
    let firstFailure: string | null = null
    const signIns = async () => {
      const latencies: number[] = []
      let failed = 0
      const started = performance.now()
      for (let i = 0; i < options.signIns; i++) {
        await sleep(started + i * options.everyMs - performance.now())
        try {
          latencies.push(await signIn(url, credentials.apiKey, client))
        } catch (error) {
          failed++
          firstFailure ??= error instanceof Error ? error.message : String(error)
        }
      }
      return { latencies, failed }
    }

    const quiet = await signIns()
    const bot = startBot(url, credentials.apiKey, options.botRate)
    while (bot.answers.limited === 0) {
      if (performance.now() - bot.started > 60_000) throw new Error('The bot was never refused within a minute.')
      await sleep(50)
    }
    const abused = await signIns()
    const botRun = await bot.stop()
    return {
      store: 'data directory' as const,
      botRate: options.botRate,
      botAchievedRate: botRun.sent / botRun.durationS,
      durationS: botRun.durationS,
      bot: botRun.answers,
      quiet: quiet.latencies,
      abused: abused.latencies,
      failed: { quiet: quiet.failed, abused: abused.failed },
      firstFailure,
    }
  })
}

/** One person's sign-in; resolves to the authenticate call's latency, ms, and throws when any step fails. */
async function signIn(url: string, apiKey: string, client: ReturnType<typeof createClient>): Promise<number> {
  const created = await send(url, 'POST', '/v1/entity/challenges', { key: apiKey }, PERSON_ADDRESS)
  if (created.status !== 201) throw new Error(`The person's challenge creation answered ${created.status}: ${created.body}`)
  const { id, pollingUrl } = JSON.parse(created.body) as { id: string; pollingUrl: string }
  const signed = await send(url, 'POST', `/__knobs/challenges/${id}/sign`, { identifier: IDENTIFIER }, PERSON_ADDRESS)
  if (signed.status !== 200) throw new Error(`Signing answered ${signed.status}: ${signed.body}`)
  const polled = await send(pollingUrl, 'GET', '', undefined, PERSON_ADDRESS)
  if (polled.status !== 200) throw new Error(`The status poll answered ${polled.status}: ${polled.body}`)
  const { jti, otp } = claimsOf((JSON.parse(polled.body) as { token: string }).token)
  const start = performance.now()
  await client.authenticate(IDENTIFIER, { challenge: jti, otp })
  return performance.now() - start
}

/** Read, not verified: the bench is the integrator here, and the service has just handed it over. */
function claimsOf(token: string): { jti: string; otp: string } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { jti: string; otp: string }
}

/**
 * An open loop: creations are sent on schedule, `rate` a second, whether or not the service has
 * answered the earlier ones, as a bot would; each on a connection of its own.
 */
function startBot(url: string, apiKey: string, rate: number) {
  const answers = { created: 0, limited: 0, other: 0, errors: 0 }
  const inFlight = new Set<Promise<void>>()
  const started = performance.now()
  let sent = 0
  const tick = setInterval(() => {
    const due = Math.floor(((performance.now() - started) / 1000) * rate)
    for (; sent < due; sent++) {
      const answered = send(url, 'POST', '/v1/entity/challenges', { key: apiKey }, BOT_ADDRESS).then(
        ({ status }) => {
          if (status === 201) answers.created++
          else if (status === 429) answers.limited++
          else answers.other++
        },
        () => {
          answers.errors++
        },
      )
      inFlight.add(answered)
      void answered.finally(() => inFlight.delete(answered))
    }
  }, 5)
  return {
    started,
    answers,
    async stop() {
      clearInterval(tick)
      const durationS = (performance.now() - started) / 1000
      await Promise.all(inFlight)
      return { sent, durationS, answers }
    },
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)))
