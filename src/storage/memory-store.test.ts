import { createMemoryStore } from './memory-store'
import { describeStoreContract } from './store-contract'

describeStoreContract('createMemoryStore', async () => createMemoryStore())
