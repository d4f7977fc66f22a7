/**
 * Runs the scenario with Colyseus's stock SchemaSerializer in a worker thread of its own: a module
 * registry where nothing of ours that touches the library's internals is loaded (the test checks
 * the list this answers with), so what it records is what the library itself sends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SchemaSerializer } from 'colyseus';
import { playScenario, ScenarioSpec, StateWriter } from './scenario';

const specs = workerData as ScenarioSpec[];
const results = specs.map((spec) => playScenario(spec, new SchemaSerializer() as unknown as StateWriter));
const ours = Object.keys(require.cache).filter((file) => file.includes('/server/'));
parentPort!.postMessage({ results, ours });
