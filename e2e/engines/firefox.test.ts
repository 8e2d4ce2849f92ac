import { launchFirefox } from './drivers/puppeteer-firefox.ts'
import { describeEngine } from './suite.ts'

describeEngine('firefox', launchFirefox)
