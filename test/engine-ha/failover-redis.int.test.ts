/** Failover with no gap on a Redis playout log, with hls.js playing through the load balancer. */
import { failoverSuite } from './failover-suite';
import { startRedisHaStore } from './support/ha-stores';

failoverSuite('Redis', startRedisHaStore, true);
