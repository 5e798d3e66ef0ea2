import { concurrency } from './concurrency.js';
import { egress } from './egress.js';
import { peer } from './peer.js';
import { processBroker } from './process-broker.js';
import { roundTrip } from './round-trip.js';
import { sandboxStartup } from './sandbox-startup.js';
import type { Scenario } from './scenario.js';
import { sessionOpen } from './session-open.js';
import { walks } from './walks.js';

/** The scenarios of issue 8, then 7 (sandbox start-up, issue 13) and 8 (the egress proxy, issue 16), in their numbered order; ids are unique (scenarioIds checks). */
export const SCENARIOS: readonly Scenario[] = [sessionOpen, roundTrip, concurrency, walks, processBroker, peer, sandboxStartup, egress];
