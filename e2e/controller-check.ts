// The controller check (`service-auth-mock check-controller`) as every example app's test runs it:
// Ada signs in at the app's /auth/controller, /welcome says whether she is signed in. Runner-free,
// so that Playwright's specs and vitest's tests assert on it alike.
import { checkController, type ControllerCheck } from '@service-auth/mock'

/**
 * Every case of the check on the app at `origin` that did not pass: a failure, a skip, or a
 * warning too (the examples refuse a request without X-Requested-With, `no-requested-with`, with
 * a 400). An app written right gives `[]`; otherwise the cases say what and how to fix it.
 */
export async function controllerCheckMisses(origin: string, service: { url: string; key: string; secret: string }): Promise<ControllerCheck[]> {
  const report = await checkController({
    controller: `${origin}/auth/controller`,
    identity: 'ada@example.com',
    signedIn: `${origin}/welcome`,
    service: service.url,
    key: service.key,
    secret: service.secret,
  })
  return report.checks.filter(({ outcome }) => outcome !== 'pass')
}
