import { launchChromium } from './drivers/playwright.ts'
import { describeEngine } from './suite.ts'

describeEngine('chromium', launchChromium)
