import { launchWebKit } from './drivers/webkit-webdriver.js'
import { describeEngine } from './suite.js'

describeEngine('webkit', launchWebKit)
