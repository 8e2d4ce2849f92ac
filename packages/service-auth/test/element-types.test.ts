// @vitest-environment node
// The frameworks' typings of the element and the React component's own props, under
// exactOptionalPropertyTypes, which `tsc --init` turns on: types/optional-undefined.ts must check,
// against the built declarations (dist/types, `npm run build`), as an app's tsc reads them.
import { execFile } from 'node:child_process'
import { writeFile, rm } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const config = fileURLToPath(new URL('types/tsconfig.json', import.meta.url))

it('takes an optional attribute, prop or handler that may be undefined, as an app passes user?.locale, under exactOptionalPropertyTypes', async () => {
  await writeFile(
    config,
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        lib: ['es2022', 'dom', 'dom.iterable'],
        types: [],
        strict: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: true,
        noEmit: true,
      },
      include: ['optional-undefined.ts'],
    }),
  )
  try {
    const result = await promisify(execFile)(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', config], { cwd: root }).catch((error) => error)
    expect(result.stdout).toBe('')
  } finally {
    await rm(config)
  }
}, 120_000)
