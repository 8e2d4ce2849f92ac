import { launchWebKit } from './drivers/webkit-webdriver.ts'
import { describeEngine } from './suite.ts'

describeEngine('webkit', launchWebKit)
