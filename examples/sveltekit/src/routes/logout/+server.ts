// Ends the session and goes back to the login page.
import { redirect } from '@sveltejs/kit'
import { sessions } from '$lib/server/service-auth'
import type { RequestHandler } from './$types'

export const POST: RequestHandler = ({ cookies }) => {
  sessions.delete(cookies.get('session') ?? '')
  cookies.delete('session', { path: '/' })
  redirect(303, '/login')
}
