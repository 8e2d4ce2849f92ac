// Only for a signed-in user; anyone else goes to the login page.
import { redirect } from '@sveltejs/kit'
import type { PageServerLoad } from './$types'

export const load: PageServerLoad = ({ locals }) => {
  if (!locals.user) redirect(303, '/login')
  return { name: locals.user.name }
}
