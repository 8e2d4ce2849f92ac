import { launchChromium } from './drivers/playwright.js'
import { describeEngine } from './suite.js'

describeEngine('chromium', launchChromium)
