import { createMemoryStore } from './memory-store'
import { describeStoreContract } from '../testing/store-contract/index'

describeStoreContract('createMemoryStore', async () => createMemoryStore())
