import { launchFirefox } from './drivers/puppeteer-firefox.js'
import { describeEngine } from './suite.js'

describeEngine('firefox', launchFirefox)
