// Checked by element-types.test.ts under exactOptionalPropertyTypes (as `tsc --init` turns it on):
// an optional attribute, prop or handler given a value that may be undefined, as an app passes
// `user?.locale`, is absent at run time ("undefined counts as absent"), and so in the types.
import type { ServiceAuthElementProps as ReactElementProps } from 'service-auth/element/react'
import type { ServiceAuthElementProps as SolidElementProps } from 'service-auth/element/solid'
import type { ServiceAuthElementProps as SvelteElementProps } from 'service-auth/element/svelte'
import type { ServiceAuthElementProps as VueElementProps } from 'service-auth/element/vue'
import type { Options } from 'service-auth'
import type { ServiceAuthProps } from 'service-auth/react'

declare const user: { locale?: string; texts?: { ready: string }; onSuccess?: () => void } | undefined
const required = { 'api-key': 'k', 'auth-url': '/a', api: 'https://api.example' }

export const react: ReactElementProps = { ...required, locale: user?.locale, texts: user?.texts, 'onservice-auth-success': user?.onSuccess }
export const svelte: SvelteElementProps = { ...required, locale: user?.locale, texts: user?.texts, 'onservice-auth-success': user?.onSuccess }
export const solid: SolidElementProps = { ...required, locale: user?.locale, texts: user?.texts, 'on:service-auth-success': user?.onSuccess }
export const vue: VueElementProps = {
  apiKey: 'k',
  authUrl: '/a',
  api: 'https://api.example',
  locale: user?.locale,
  texts: user?.texts,
  onServiceAuthSuccess: user?.onSuccess,
}
export const component: Pick<ServiceAuthProps, 'onSuccess' | 'onReady' | 'className'> = {
  onSuccess: user?.onSuccess,
  onReady: user?.onSuccess,
  className: user?.locale,
}
// mount()'s options, and the options as the React and Vue components' props.
export const options: Options = { locale: user?.locale, texts: user?.texts, autoStart: user ? undefined : false }
export const props: Pick<ServiceAuthProps, 'locale' | 'texts' | 'appUrl'> = { locale: user?.locale, texts: user?.texts, appUrl: user?.locale }
