/** The in-memory store keeps the playout log store contract. */
import { InMemoryPlayoutLogStore } from '../../engine-container/src/playout/log-store';
import { logStoreContract } from './log-store-contract';

logStoreContract('in-memory store', () => new InMemoryPlayoutLogStore());
