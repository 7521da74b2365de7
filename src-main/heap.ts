import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what was alive at its last full collection before
 * it collects again, in percent; set when this module is evaluated, which is why the entry points
 * and the composition root import it first: the limit a full collection sets holds until the next
 * one, so the collections made while the rest of the app loads must already see it.
 *
 * Why: V8 picks that factor itself, up to 4x on a machine with a lot of memory, which suits a
 * short script and not a desktop app that moves folders for minutes: every small file leaves a
 * few KB that outlive two young collections (requests in flight, their signals and closures),
 * and all of it stays until the next full collection. Measured on a folder of 10,000 files of
 * 4 KiB through the transfer service (the bench's Coffer client, coffer serve, 2-core machine):
 * peak RSS 222-259 MiB against 168-175 for a tenth of the folder (1.3-1.5x); with 30%, 183-193
 * against 165-174 (1.07-1.12x), with no loss of throughput; 60% and 100% gave 1.11-1.18x. V8
 * reads the flag at each full collection, so setting it at run time works, for the process's
 * worker threads too.
 */
export const HEAP_GROWING_PERCENT = 30;

setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
