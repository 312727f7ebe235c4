import { executionAsyncResource } from 'node:async_hooks';

/**
 * One `process.nextTick` record, held for the life of the process (imported first by main.ts).
 *
 * Node makes a small record for every `process.nextTick`, several per HTTP request. V8 builds those records
 * fast while their hidden classes are the ones it has already seen. A full garbage collection at a moment
 * when no record is alive frees those classes, and from the next call on V8 fills three of the record's four
 * fields through its slow, generic path, for as long as the process lives. Opening the embedded database runs
 * such collections at start, and every server runs them after sitting idle (V8's memory reducer). On the
 * catalogue's load the generic path took about a tenth of the server's CPU time (bench/FINDINGS.md). A live
 * record keeps its classes alive, so the fast path stays.
 */
const heldTick: { record?: object } = {};

process.nextTick(() => {
  // Inside a nextTick callback the current resource is that tick's own record.
  heldTick.record = executionAsyncResource();
});
