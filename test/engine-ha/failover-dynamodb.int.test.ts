/** Failover with no gap on a DynamoDB playout log (DynamoDB Local; lease expiry by the engines' clocks). */
import { failoverSuite } from './failover-suite';
import { startDynamoHaStore } from './support/ha-stores';

failoverSuite('DynamoDB', startDynamoHaStore, false);
